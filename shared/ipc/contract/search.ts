// The search namespace: Quick open's file list and Find in files, both run on the host, the
// commands of electron/app/handlers/search-handlers.ts.
import { z } from 'zod';
import { command, type CommandsOfNamespace, EnvironmentId, Ok } from './common';

/** An absolute path on the host: the folder Quick open lists and Find in files searches. */
const SearchRoot = z.string().min(1).max(4096).startsWith('/');

/** The files of a workspace for Quick open, as the host listed them (cached per environment). */
export const WorkspaceFiles = z.object({
  root: z.string(),
  /** Paths relative to root, "/"-separated, in the order the host listed them. */
  files: z.array(z.string()),
  /** The listing stopped at its count, depth or time limit: some files are not in it. */
  truncated: z.boolean(),
  /** What listed them: `rg --files`, `git ls-files`, `find`, or a walk over the file system. */
  source: z.enum(['rg', 'git', 'find', 'walk']),
  listedAt: z.number(),
});
export type WorkspaceFiles = z.infer<typeof WorkspaceFiles>;

/** What Find in files looks for: the text (or a regex), its options and an optional include glob. */
export const TextSearchOptions = z.object({
  query: z.string().min(1).max(1000),
  caseSensitive: z.boolean().default(false),
  /** The query is a regular expression (ripgrep's syntax, or grep -E's without ripgrep). */
  regex: z.boolean().default(false),
  wholeWord: z.boolean().default(false),
  /** Globs of the file names to search, comma-separated (e.g. "*.ts, *.md"); empty: every file. */
  include: z.string().max(1000).default(''),
});
export type TextSearchOptions = z.input<typeof TextSearchOptions>;

/** One matched line: its number (from 1), its text (cut around the match) and the matched ranges. */
export const TextMatch = z.object({
  line: z.number().int().min(1),
  text: z.string(),
  /** [start, end) character offsets in `text`. */
  ranges: z.array(z.tuple([z.number().int(), z.number().int()])),
});
export type TextMatch = z.infer<typeof TextMatch>;

export const TextSearchResult = z.object({
  tool: z.enum(['rg', 'grep']),
  /** Files with matches, each with its absolute path, in the order the host found them. */
  files: z.array(z.object({ path: z.string(), matches: z.array(TextMatch) })),
  /** Matches counted, of which the first `files` hold at most the cap (the rest are "N more…"). */
  totalMatches: z.number().int(),
  /** The search stopped before the end (count limit, time limit or cancelled): the total is a floor. */
  stopped: z.enum(['countLimit', 'timeout', 'cancelled']).nullable(),
  /** What the tool complained of while still finding matches (unreadable files…). */
  warning: z.string().nullable(),
});
export type TextSearchResult = z.infer<typeof TextSearchResult>;

export const searchCommands = {
  /** The files under `root` for Quick open: the cached listing, or a fresh one if `refresh`. */
  'search.files': command(
    z.object({ envId: EnvironmentId, root: SearchRoot, refresh: z.boolean().default(false) }),
    WorkspaceFiles,
  ),
  /** Find in files under `root`, run on the host; `searchId` names it for search.cancel. */
  'search.text': command(
    TextSearchOptions.extend({
      envId: EnvironmentId,
      root: SearchRoot,
      searchId: z.string().min(1).max(100),
    }),
    TextSearchResult,
  ),
  /** Stops a running search.text; it answers with what it found so far. */
  'search.cancel': command(z.object({ searchId: z.string().min(1).max(100) }), Ok),
} as const satisfies CommandsOfNamespace<'search'>;
