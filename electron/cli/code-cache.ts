// The V8 code cache of the `tether` CLI bundle (dist/cli-main.cjs): Node 20 compiles the 2 MB
// bundle, and every function a command calls, anew on each start (Node 22's module compile cache
// is not there), which cost `tether run` about 0.1 s of CPU before it started podman or ssh. The
// launcher (launcher.ts) compiles the bundle as a vm.Script fed the bytes V8 produced last time,
// and after the first command has run writes them once: they then hold the functions that command
// compiled lazily too.
//
// One file per command, bundle and Node, in the user's cache directory ($XDG_CACHE_HOME or
// ~/.cache, then tether/cli-code-cache/). Its name and its header carry the bundle's SHA-256, the
// command, Node's and V8's versions and the architecture, and the header the SHA-256 of the V8
// bytes: a file of another bundle or Node, a truncated or corrupt one is never handed to V8, only
// replaced. V8 may still reject bytes
// (other V8 flags): then they are replaced too. Writes go to a temporary file renamed into place,
// so a reader never sees half a file. Nothing here may fail the CLI: the cache is only ever skipped.
// TETHER_CODE_CACHE=off turns it off, TETHER_CODE_CACHE=verbose reports what it did on stderr.
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

const MAGIC = 'tether-cli-code-cache 1';
/** Cache files kept in the directory (other commands, bundles, Nodes): the newest ones. */
const KEEP_FILES = 16;
const FILE_PATTERN = /^cli-[0-9a-f]{16}-.+\.v8cache$/;

export type CacheOutcome =
  /** The bytes were given to V8 and it took them. */
  | 'used'
  /** No file for this bundle and Node yet. */
  | 'missing'
  /** A file was there, but its header or its bytes were wrong (another bundle, truncated, corrupt). */
  | 'invalid'
  /** V8 refused the bytes (another V8 or other flags). */
  | 'rejected'
  /** TETHER_CODE_CACHE=off. */
  | 'off';

export interface CompiledBundle {
  /** The bundle's top level, wrapped as a CommonJS module function (see wrapBundle). */
  run: (...args: unknown[]) => unknown;
  outcome: CacheOutcome;
  /** The cache file of this bundle and Node (null when off). */
  cacheFile: string | null;
  /**
   * Writes the cache unless it was used as it is; call once the command has run a while (the
   * bytes then hold the functions it compiled). Never throws; true when a file was written.
   */
  save: () => boolean;
}

export interface CodeCacheOptions {
  /**
   * The command (`run`, `cp`…): each has its file, holding what that command compiled (a file
   * written by `tether --version` would lack all `tether run` compiles once connected).
   */
  command?: string | undefined;
  /** Where cache files go (default: defaultCacheDir()). */
  cacheDir?: string;
  /** TETHER_CODE_CACHE's value (default: the environment's). */
  mode?: string | undefined;
  /** Where verbose reports go. */
  report?: (line: string) => void;
}

/** $XDG_CACHE_HOME/tether/cli-code-cache, or ~/.cache/tether/cli-code-cache. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'tether', 'cli-code-cache');
}

/** The bundle's source as the body of a CommonJS module function. */
export function wrapBundle(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The command's name as it may appear in a file name (anything else shares one file). */
function commandKey(command: string | undefined): string {
  return command !== undefined && /^[a-z][a-z-]{0,31}$/.test(command) ? command : 'other';
}

/** Node's and V8's versions and the architecture (Electron's Node, running as node, has its own V8). */
function runtimeKey(): string {
  return `${process.version}-v8-${process.versions.v8}-${process.arch}`;
}

/** The header line naming what the bytes after it were made for, and their own hash. */
function header(bundleHash: string, command: string, payloadHash: string): string {
  return `${MAGIC} ${bundleHash} ${command} ${runtimeKey()} ${payloadHash}\n`;
}

/** The V8 bytes of `file` if its header is for `bundleHash` and this Node and they are whole; else null. */
function readCache(file: string, bundleHash: string, command: string): Buffer | null | 'missing' {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return 'missing';
  }
  const newline = data.indexOf(0x0a);
  if (newline < 0 || newline > 512) return null;
  const payload = data.subarray(newline + 1);
  const expected = header(bundleHash, command, sha256(payload));
  if (data.toString('latin1', 0, newline + 1) !== expected || payload.length === 0) return null;
  return payload;
}

/** Keeps the newest KEEP_FILES cache files of `dir`, removing the others. */
function prune(dir: string): void {
  const files = readdirSync(dir)
    .filter((name) => FILE_PATTERN.test(name))
    // Another `tether` may remove one meanwhile: it then sorts first and is left alone.
    .map((name) => ({
      name,
      mtime: statSync(path.join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? Infinity,
    }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { name } of files.slice(KEEP_FILES)) rmSync(path.join(dir, name), { force: true });
}

/**
 * Compiles the bundle at `bundleFile` (a CommonJS script) with the code cache when there is a
 * valid one; `run` evaluates it once called with the module function's arguments.
 */
export function compileBundle(bundleFile: string, options: CodeCacheOptions = {}): CompiledBundle {
  const mode = 'mode' in options ? options.mode : process.env.TETHER_CODE_CACHE;
  const report =
    mode === 'verbose'
      ? (options.report ?? ((line) => process.stderr.write(`tether: ${line}\n`)))
      : () => undefined;
  const bytes = readFileSync(bundleFile);
  // esbuild writes ASCII: decoded as latin1 then, several times faster than as UTF-8, same text.
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const wrapped = wrapBundle(source);
  if (mode === 'off') {
    const script = new vm.Script(wrapped, { filename: bundleFile });
    return {
      run: script.runInThisContext() as CompiledBundle['run'],
      outcome: 'off',
      cacheFile: null,
      save: () => false,
    };
  }
  const bundleHash = sha256(bytes);
  const command = commandKey(options.command);
  const dir = options.cacheDir ?? defaultCacheDir();
  const cacheFile = path.join(dir, `cli-${bundleHash.slice(0, 16)}-${command}-${runtimeKey()}.v8cache`);
  const cached = readCache(cacheFile, bundleHash, command);
  const script = new vm.Script(wrapped, {
    filename: bundleFile,
    ...(cached instanceof Buffer ? { cachedData: cached } : {}),
  });
  const outcome: CacheOutcome =
    cached === 'missing'
      ? 'missing'
      : cached === null
        ? 'invalid'
        : script.cachedDataRejected
          ? 'rejected'
          : 'used';
  report(`code cache ${outcome}: ${cacheFile}`);
  let saved = outcome === 'used';
  const save = (): boolean => {
    if (saved) return false;
    saved = true;
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    try {
      const payload = script.createCachedData();
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(
        temporary,
        Buffer.concat([Buffer.from(header(bundleHash, command, sha256(payload)), 'latin1'), payload]),
        {
          mode: 0o600,
        },
      );
      renameSync(temporary, cacheFile);
      prune(dir);
      report(`code cache written: ${cacheFile} (${payload.length} bytes)`);
      return true;
    } catch (error) {
      try {
        rmSync(temporary, { force: true });
      } catch {
        // Left for the next write's rename or the user: a cache never fails the CLI.
      }
      report(`code cache not written: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  };
  return { run: script.runInThisContext() as CompiledBundle['run'], outcome, cacheFile, save };
}
