// `tether cp [--server URL | --ssh HOST | --stdio CMD] [-r] SRC DST`: copies a file or folder to or from a
// server, one side written `remote:PATH`. Rides out network drops (a cut transfer continues where
// it was), shows a progress line on a terminal, and exits like scp: 0 when everything was copied,
// 1 when anything failed. What the server supplied (names, errors) is escaped before it is printed.
import path from 'node:path';
import type { Command } from 'commander';
import { errorMessage } from '../../../shared/error-message';
import { escapeForTerminal } from '../../../shared/terminal-text';
import { ClientError } from '../client-error';
import { download, upload, type CopyProgress } from '../files/copy-files';
import { fromPathUri } from '../files/path-uri';
import { RemoteExecServerClient } from '../link/remote-client';
import { transportFrom, withWhereOptions, type WhereOptions } from './where-options';
import { terminalSshHooks } from '../transports/ssh/terminal-hooks';

/** scp's exit status for any failure. */
export const CP_FAILURE_EXIT_CODE = 1;
const REMOTE_PREFIX = 'remote:';
/** Messages may span lines; names never do. */
const MESSAGE = { lineBreaks: true };
/** How often the progress line is redrawn at most. */
const PROGRESS_REDRAW_MS = 200;

interface CpOptions extends WhereOptions {
  recursive?: boolean;
  quiet?: boolean;
}

/** Which side is remote, and the two paths (the remote one relative to the server's folder). */
function directionOf(
  source: string,
  destination: string,
): { direction: 'upload' | 'download'; local: string; remote: string } {
  const sourceRemote = source.startsWith(REMOTE_PREFIX);
  const destinationRemote = destination.startsWith(REMOTE_PREFIX);
  if (sourceRemote === destinationRemote) {
    throw new ClientError('invalidArgument', `Exactly one of SRC and DST must be ${REMOTE_PREFIX}PATH.`);
  }
  return sourceRemote
    ? { direction: 'download', remote: source.slice(REMOTE_PREFIX.length), local: destination }
    : { direction: 'upload', remote: destination.slice(REMOTE_PREFIX.length), local: source };
}

/** A one-line progress display on a terminal (names and totals), silent elsewhere except errors. */
class ProgressLine implements CopyProgress {
  private readonly sizes = new Map<string, number>();
  private readonly done = new Map<string, number>();
  private readonly startedAt = Date.now();
  private lastDrawAt = 0;
  private current = '';
  /** Files that could not be copied. */
  failures = 0;

  constructor(private readonly tty: boolean) {}

  started(name: string, size: number): void {
    this.sizes.set(name, size);
    this.done.set(name, 0);
    this.current = name;
    this.draw(false);
  }

  advanced(name: string, doneBytes: number): void {
    this.done.set(name, doneBytes);
    this.current = name;
    this.draw(false);
  }

  failed(name: string, reason: string): void {
    this.failures++;
    this.clear();
    process.stderr.write(`tether cp: ${escapeForTerminal(name)}: ${escapeForTerminal(reason, MESSAGE)}\n`);
  }

  refused(name: string, reason: string): void {
    this.failures++;
    this.clear();
    process.stderr.write(
      `tether cp: warning: refused the server's name "${escapeForTerminal(name)}": ${reason}; it was not copied\n`,
    );
  }

  finish(): void {
    this.draw(true);
    if (this.tty) process.stderr.write('\n');
  }

  private draw(force: boolean): void {
    if (!this.tty) return;
    const now = Date.now();
    if (!force && now - this.lastDrawAt < PROGRESS_REDRAW_MS) return;
    this.lastDrawAt = now;
    const total = sum(this.sizes.values());
    const done = sum(this.done.values());
    const percent = total > 0 ? Math.floor((done * 100) / total) : 100;
    const rate = done / Math.max(0.001, (now - this.startedAt) / 1000);
    const files = this.sizes.size > 1 ? ` ${this.sizes.size} files` : '';
    const width = Math.max(10, (process.stderr.columns ?? 80) - 50);
    const filled = Math.round((percent / 100) * width);
    const bar = '#'.repeat(filled) + '.'.repeat(width - filled);
    const current = escapeForTerminal(this.current);
    const name = current.length > 24 ? `…${current.slice(-23)}` : current.padEnd(24);
    process.stderr.write(`\r${name} [${bar}] ${String(percent).padStart(3)}% ${megabytes(rate)}/s${files}`);
  }

  private clear(): void {
    if (this.tty) process.stderr.write('\r\x1b[K');
  }
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

function megabytes(bytesPerSecond: number): string {
  return `${(bytesPerSecond / 1e6).toFixed(1)} MB`;
}

async function copy(source: string, destination: string, options: CpOptions): Promise<number> {
  const say = (message: string): void =>
    void process.stderr.write(`tether cp: ${escapeForTerminal(message, MESSAGE)}\n`);
  let plan: ReturnType<typeof directionOf>;
  let client: RemoteExecServerClient;
  try {
    plan = directionOf(source, destination);
    client = new RemoteExecServerClient({
      transport: transportFrom(options),
      ssh: terminalSshHooks(false),
      sshSharedMaster: true,
    });
  } catch (error) {
    say(errorMessage(error));
    return CP_FAILURE_EXIT_CODE;
  }
  const progress = new ProgressLine(Boolean(process.stderr.isTTY) && !options.quiet);
  try {
    await client.connect();
    const cwd = client.environmentInfo?.cwd ? fromPathUri(client.environmentInfo.cwd) : '/';
    const remote = path.posix.resolve(cwd, plan.remote || '.');
    const job = { fs: client.fs, recursive: Boolean(options.recursive), progress };
    if (plan.direction === 'upload') await upload(job, plan.local, remote);
    else await download(job, remote, plan.local);
    progress.finish();
    return progress.failures === 0 ? 0 : CP_FAILURE_EXIT_CODE;
  } catch (error) {
    progress.finish();
    say(errorMessage(error));
    return CP_FAILURE_EXIT_CODE;
  } finally {
    await client.close({ endSession: true });
  }
}

export function registerCpCommand(program: Command): void {
  withWhereOptions(
    program
      .command('cp')
      .description('Copy files to or from a server (one side remote:PATH), riding through network drops.'),
  )
    .option('-r, --recursive', 'copy folders and everything in them')
    .option('-q, --quiet', 'no progress line')
    .argument('<source>', 'a local path, or remote:PATH')
    .argument('<destination>', 'a local path, or remote:PATH (an existing folder receives SOURCE inside it)')
    .action(async (source: string, destination: string, options: CpOptions) => {
      const code = await copy(source, destination, options);
      process.stderr.write('', () => process.exit(code));
    });
}
