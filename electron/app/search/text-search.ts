// Find in files on the host: ripgrep (`rg --json`) when the host has it, else `grep -rn --null`;
// the query and globs go in argv after -e / --glob, never through a shell. Output is parsed as it
// streams, matches are capped (the rest only counted) and the search can be cancelled.
import type { TextMatch, TextSearchOptions, TextSearchResult } from '../../../shared/ipc';
import type { ExecServerClientApi } from '../../client/api';
import { AppError } from '../app-error';
import {
  FIND_COUNT_LIMIT,
  FIND_LINE_CHARS,
  FIND_MAX_MATCHES,
  FIND_MAX_MATCHES_PER_FILE,
  FIND_TIMEOUT_MS,
} from '../limits';
import { MissingProgramError, runHostCommand } from './host-command';
import type { HostTools } from './host-tools';
import { rgSkipGlobs, SKIPPED_FOLDERS } from './skipped-folders';

export type SearchTool = TextSearchResult['tool'];
export type SearchQuery = Required<TextSearchOptions>;

/** One matched line as a tool reports it: the path relative to the searched folder. */
export interface RawMatch {
  path: string;
  line: number;
  text: string;
  ranges: Array<[number, number]>;
}

export interface SearchLimits {
  maxMatches: number;
  countLimit: number;
  perFile: number;
  timeoutMs: number;
}

export const FIND_LIMITS: SearchLimits = {
  maxMatches: FIND_MAX_MATCHES,
  countLimit: FIND_COUNT_LIMIT,
  perFile: FIND_MAX_MATCHES_PER_FILE,
  timeoutMs: FIND_TIMEOUT_MS,
};

function includeGlobs(include: string): string[] {
  return include
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);
}

export function searchArgv(tool: SearchTool, query: SearchQuery, perFile: number): string[] {
  const globs = includeGlobs(query.include);
  if (tool === 'rg') {
    return [
      'rg',
      '--json',
      '--no-config',
      '--hidden',
      query.caseSensitive ? '--case-sensitive' : '--ignore-case',
      ...(query.regex ? [] : ['--fixed-strings']),
      ...(query.wholeWord ? ['--word-regexp'] : []),
      '--max-count',
      String(perFile),
      // rg --glob: the later wins, so the skipped folders come after the include globs.
      ...globs.flatMap((g) => ['--glob', g]),
      ...rgSkipGlobs(),
      '-e',
      query.query,
      '--',
      '.',
    ];
  }
  return [
    'grep',
    '-r',
    '-n',
    '-H',
    '-I',
    '--null',
    '--color=never',
    ...(query.caseSensitive ? [] : ['-i']),
    query.regex ? '-E' : '-F',
    ...(query.wholeWord ? ['-w'] : []),
    '-m',
    String(perFile),
    ...globs.map((g) => `--include=${g}`),
    ...SKIPPED_FOLDERS.map((name) => `--exclude-dir=${name}`),
    '-e',
    query.query,
    '--',
    '.',
  ];
}

function relative(path: string): string {
  return path.startsWith('./') ? path.slice(2) : path;
}

/** Splits a byte stream into records ending in `separator` (10: newline), the rest kept for later. */
class Records {
  private pending: Uint8Array = new Uint8Array(0);
  constructor(private readonly separator: number) {}

  push(chunk: Uint8Array): Uint8Array[] {
    const data = this.pending.byteLength ? Buffer.concat([this.pending, chunk]) : chunk;
    const records: Uint8Array[] = [];
    let start = 0;
    for (let i = data.indexOf(this.separator); i !== -1; i = data.indexOf(this.separator, start)) {
      records.push(data.subarray(start, i));
      start = i + 1;
    }
    this.pending = data.slice(start);
    return records;
  }
}

type RgText = { text?: string; bytes?: string };

function rgText(value: RgText | undefined): string {
  if (!value) return '';
  if (typeof value.text === 'string') return value.text;
  return typeof value.bytes === 'string' ? Buffer.from(value.bytes, 'base64').toString('utf8') : '';
}

/** Parses `rg --json` output: one JSON message a line; only `match` messages are kept. */
export class RgJsonParser {
  private readonly lines = new Records(10);

  push(chunk: Uint8Array): RawMatch[] {
    const out: RawMatch[] = [];
    for (const record of this.lines.push(chunk)) {
      let message: { type?: string; data?: Record<string, unknown> };
      try {
        message = JSON.parse(Buffer.from(record).toString('utf8')) as typeof message;
      } catch {
        continue;
      }
      if (message.type !== 'match' || !message.data) continue;
      const data = message.data as {
        path?: RgText;
        lines?: RgText;
        line_number?: number;
        submatches?: Array<{ start?: number; end?: number }>;
      };
      if (typeof data.line_number !== 'number') continue;
      const lineBytes = Buffer.from(rgText(data.lines), 'utf8');
      // rg's offsets count bytes of the line; the UI counts characters.
      const charAt = (byte: number) => lineBytes.subarray(0, byte).toString('utf8').length;
      const text = lineBytes.toString('utf8').replace(/\r?\n$/, '');
      const ranges = (data.submatches ?? [])
        .filter((m) => typeof m.start === 'number' && typeof m.end === 'number')
        .map((m): [number, number] => [charAt(m.start!), Math.min(charAt(m.end!), text.length)]);
      out.push({ path: relative(rgText(data.path)), line: data.line_number, text, ranges });
    }
    return out;
  }
}

/**
 * Parses `grep -rnH --null` output: each record is the path, a NUL, the line number, ":", and the
 * line up to a newline. The path ends only at its NUL, so a name with a newline or colon stays whole.
 * grep gives no match offsets: `findRanges` finds them again in the line.
 */
export class GrepNullParser {
  private pending: Uint8Array = new Uint8Array(0);

  constructor(private readonly findRanges: (text: string) => Array<[number, number]>) {}

  push(chunk: Uint8Array): RawMatch[] {
    const data = this.pending.byteLength ? Buffer.concat([this.pending, chunk]) : chunk;
    const out: RawMatch[] = [];
    let start = 0;
    for (;;) {
      const nul = data.indexOf(0, start);
      if (nul === -1) break;
      const end = data.indexOf(10, nul + 1);
      if (end === -1) break;
      const path = Buffer.from(data.subarray(start, nul)).toString('utf8');
      const rest = Buffer.from(data.subarray(nul + 1, end)).toString('utf8');
      start = end + 1;
      const colon = rest.indexOf(':');
      const line = Number(rest.slice(0, colon));
      if (colon <= 0 || !Number.isInteger(line)) continue;
      const text = rest.slice(colon + 1).replace(/\r$/, '');
      out.push({ path: relative(path), line, text, ranges: this.findRanges(text) });
    }
    this.pending = data.slice(start);
    return out;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Where the query matches in a line grep reported, for highlighting: the same options as a
 * JavaScript regex. A grep -E pattern JavaScript cannot read highlights nothing (the line still shows).
 */
export function rangeFinder(query: SearchQuery): (text: string) => Array<[number, number]> {
  let pattern = query.regex ? query.query : escapeRegExp(query.query);
  if (query.wholeWord) pattern = `(?<![\\p{L}\\p{N}_])(?:${pattern})(?![\\p{L}\\p{N}_])`;
  let re: RegExp;
  try {
    re = new RegExp(pattern, `gu${query.caseSensitive ? '' : 'i'}`);
  } catch {
    return () => [];
  }
  return (text) => {
    const ranges: Array<[number, number]> = [];
    for (const m of text.matchAll(re)) {
      if (m[0].length === 0) continue;
      ranges.push([m.index, m.index + m[0].length]);
      if (ranges.length >= 50) break;
    }
    return ranges;
  };
}

/** A long line cut to FIND_LINE_CHARS around its first match, the ranges moved with it. */
export function cutLine(match: RawMatch, maxChars = FIND_LINE_CHARS): TextMatch {
  const { text, ranges, line } = match;
  if (text.length <= maxChars) return { line, text, ranges };
  const first = ranges[0]?.[0] ?? 0;
  const from = Math.max(0, Math.min(first - Math.floor(maxChars / 4), text.length - maxChars));
  const to = from + maxChars;
  return {
    line,
    text: text.slice(from, to),
    ranges: ranges
      .filter(([s, e]) => e > from && s < to)
      .map(([s, e]): [number, number] => [Math.max(s, from) - from, Math.min(e, to) - from]),
  };
}

function joinRoot(root: string, path: string): string {
  return `${root.replace(/\/+$/, '')}/${path}`;
}

/** Runs one search with `tool` under `root` (absolute). Throws MissingProgramError if it is not there. */
export async function searchWith(
  client: ExecServerClientApi,
  tool: SearchTool,
  root: string,
  query: SearchQuery,
  options: { signal?: AbortSignal; limits?: SearchLimits } = {},
): Promise<TextSearchResult> {
  const limits = options.limits ?? FIND_LIMITS;
  const parser = tool === 'rg' ? new RgJsonParser() : new GrepNullParser(rangeFinder(query));
  const files: TextSearchResult['files'] = [];
  const byPath = new Map<string, TextSearchResult['files'][number]>();
  let total = 0;
  let shown = 0;
  const result = await runHostCommand(client, {
    argv: searchArgv(tool, query, limits.perFile),
    cwd: root,
    timeoutMs: limits.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    onStdout: (chunk) => {
      for (const match of parser.push(chunk)) {
        total++;
        if (shown < limits.maxMatches) {
          shown++;
          const path = joinRoot(root, match.path);
          let file = byPath.get(path);
          if (!file) {
            file = { path, matches: [] };
            byPath.set(path, file);
            files.push(file);
          }
          file.matches.push(cutLine(match));
        }
      }
      return total < limits.countLimit;
    },
  });
  const stopped =
    result.stopped === 'enough' ? 'countLimit' : result.stopped === 'timeout' ? 'timeout' : result.stopped;
  // Both tools exit 1 for "no match" and 2 for an error; with matches found, an error is a warning.
  if (result.exitCode === 2 && total === 0) {
    throw new AppError('invalidInput', `${tool} failed: ${result.stderr || `exit code ${result.exitCode}`}`);
  }
  if (result.exitCode !== null && result.exitCode > 2) {
    throw new AppError('remote', `${tool} failed with exit code ${result.exitCode}: ${result.stderr}`);
  }
  return {
    tool,
    files,
    totalMatches: total,
    stopped,
    warning: result.exitCode === 2 ? result.stderr || null : null,
  };
}

/** Find in files with the best tool the host has (ripgrep, else grep), learnt once per environment. */
export async function searchText(
  client: ExecServerClientApi,
  tools: HostTools,
  root: string,
  query: SearchQuery,
  signal?: AbortSignal,
): Promise<TextSearchResult> {
  for (const tool of ['rg', 'grep'] as const) {
    if (tools.known(tool) === false) continue;
    try {
      const result = await searchWith(client, tool, root, query, signal ? { signal } : {});
      tools.found(tool, true);
      return result;
    } catch (error) {
      if (!(error instanceof MissingProgramError)) throw error;
      tools.found(tool, false);
    }
  }
  throw new AppError(
    'unsupported',
    'Find in files needs ripgrep (rg) or grep on the host, and it has neither on its PATH. Install one of them there.',
  );
}
