// Runs the bootstrap's small POSIX sh scripts on the host through its HostShell. A script travels as one
// line inside `exec /bin/sh -c '…'`, which every login shell (bash, zsh, fish, tcsh, dash) passes
// on unchanged; its results are framed by random markers, so login noise (.bashrc, MOTD) is ignored.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { SshError } from '../transports/ssh/ssh-error';
import type { HostShell } from './host-shell';
import type { SshStage } from '../transports/ssh/ssh-hooks';

/** The remote command line that runs `statements` (joined by "; ") under /bin/sh. */
export function remoteSh(statements: string[]): string {
  const script = statements.join('; ');
  // Inside single quotes a login shell passes everything through, except these three.
  if (/['\\\n]/.test(script)) throw new Error(`A remote script may not contain ', \\ or newlines: ${script}`);
  return `exec /bin/sh -c '${script}'`;
}

/** Characters a host path may hold to go into our scripts inside double quotes. */
const SAFE_PATH = /^\/[A-Za-z0-9._/@+-]*$/;

/** Why `path` cannot go into the bootstrap's scripts, or null if it can; `what` names it. */
export function unsafePathError(path: string, what: string, stage: SshStage): SshError | null {
  if (SAFE_PATH.test(path)) return null;
  return new SshError(
    'hostSetup',
    stage,
    `${what} "${path}" holds characters Tether does not put into shell commands (only letters, digits ` +
      'and ._/@+- are allowed).',
  );
}

/** `path`, checked for use inside the bootstrap's scripts (throws the unsafePathError). */
export function safeRemotePath(path: string, what: string, stage: SshStage): string {
  const unsafe = unsafePathError(path, what, stage);
  if (unsafe) throw unsafe;
  return path;
}

/** A fresh marker for one command's framed output. */
export function newMarker(): string {
  return `tether-${randomBytes(6).toString('hex')}`;
}

/**
 * The `key=value` lines between `<marker>-begin` and `<marker>-end`, in order, or null if not
 * framed. The begin marker may follow noise on the same line (a login script that printed no newline).
 */
export function framedLines(stdout: string, marker: string): Array<[string, string]> | null {
  const beginAt = stdout.indexOf(`${marker}-begin\n`);
  const endAt = stdout.indexOf(`\n${marker}-end`, beginAt);
  if (beginAt < 0 || endAt < 0) return null;
  const lines: Array<[string, string]> = [];
  for (const line of stdout.slice(beginAt + marker.length + 7, endAt).split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) lines.push([line.slice(0, eq), line.slice(eq + 1)]);
  }
  return lines;
}

/** framedLines by key (the last line of a key wins). */
export function framedFields(stdout: string, marker: string): Map<string, string> | null {
  const lines = framedLines(stdout, marker);
  return lines && new Map(lines);
}

/** A sh function `h FILE` printing the file's sha256 with whichever tool the host has. */
export const SHA256_FUNCTION =
  'h() { if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1"; ' +
  'elif command -v shasum >/dev/null 2>&1; then shasum -a 256 "$1"; ' +
  'else openssl dgst -sha256 -r "$1"; fi | cut -d " " -f 1; }';

export interface RemoteRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What a bootstrap command on the host is, for the errors of runOnHost. */
export interface HostCommandOptions {
  /** The connect stage the command belongs to. */
  stage: SshStage;
  /** What it does, as errors say it ("examining the host"). */
  doing: string;
  /**
   * Sees each new piece of stdout (never the whole again: a host streaming output must not cost
   * quadratic time), with the command's stdin to feed; without it, stdin is closed at once.
   */
  onStdout?: (chunk: string, stdin: Writable) => void;
  /** The idle bound (default HOST_COMMAND_IDLE_TIMEOUT_MS); tests shorten it. */
  idleTimeoutMs?: number;
}

/**
 * A bootstrap command's stdout or stderr beyond this is not a probe or an install any more: a
 * broken or hostile host streaming forever would otherwise grow the app's memory without end.
 */
export const MAX_HOST_COMMAND_OUTPUT_BYTES = 1024 * 1024;
/**
 * A bootstrap command that neither prints nor takes input for this long is given up: the connect
 * would otherwise hang in "checking" for ever. The install script prints while it waits on a lock.
 */
export const HOST_COMMAND_IDLE_TIMEOUT_MS = 2 * 60 * 1000;
const IDLE_CHECK_INTERVAL_MS = 1000;

/**
 * Runs `remoteCommand` through `shell`, bounded: it fails with an SshError once its stdout or
 * stderr passes MAX_HOST_COMMAND_OUTPUT_BYTES, or once nothing flowed for the idle timeout (the
 * upload into its stdin counts as flowing).
 */
export function runOnHost(
  shell: HostShell,
  remoteCommand: string,
  options: HostCommandOptions,
): Promise<RemoteRun> {
  const [program, ...args] = shell.commandArgv(remoteCommand);
  const idleTimeoutMs = options.idleTimeoutMs ?? HOST_COMMAND_IDLE_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = spawn(program ?? 'ssh', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let failure: SshError | null = null;
    const fail = (why: string): void => {
      if (failure) return;
      failure = new SshError(
        'hostSetup',
        options.stage,
        `${why} while ${options.doing} on ${shell.hostName}.`,
      );
      child.kill('SIGKILL');
    };
    const capped = (text: string, name: string): void => {
      if (Buffer.byteLength(text) > MAX_HOST_COMMAND_OUTPUT_BYTES) {
        fail(`The host printed more than ${MAX_HOST_COMMAND_OUTPUT_BYTES / (1024 * 1024)} MiB on ${name}`);
      }
    };
    let lastFlow = Date.now();
    let lastWritten = 0;
    const idle = setInterval(
      () => {
        // stdin is a pipe socket: bytes handed to it mean the upload is moving.
        const written = (child.stdin as Socket).bytesWritten;
        if (written !== lastWritten) {
          lastWritten = written;
          lastFlow = Date.now();
        } else if (Date.now() - lastFlow >= idleTimeoutMs) {
          fail(`The host did not answer for ${idleTimeoutMs / 1000} s`);
        }
      },
      Math.min(IDLE_CHECK_INTERVAL_MS, idleTimeoutMs),
    );
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (data: string) => {
      lastFlow = Date.now();
      if (failure) return;
      stdout += data;
      capped(stdout, 'stdout');
      if (!failure) options.onStdout?.(data, child.stdin);
    });
    child.stderr.on('data', (data: string) => {
      lastFlow = Date.now();
      if (failure) return;
      stderr += data;
      capped(stderr, 'stderr');
    });
    // A command that exits before reading all its input is not an error of ours.
    child.stdin.on('error', () => undefined);
    if (!options.onStdout) child.stdin.end();
    child.once('error', (error) => {
      clearInterval(idle);
      reject(error);
    });
    child.once('close', (code) => {
      clearInterval(idle);
      if (failure) reject(failure);
      else resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Tells which of some markers the host printed, fed one stdout piece at a time: each piece is
 * searched once, with only the last few characters before it (a marker may straddle two pieces).
 */
export class MarkerScan {
  private readonly seen = new Set<string>();
  private tail = '';
  private readonly keep: number;

  constructor(private readonly markers: readonly string[]) {
    this.keep = Math.max(0, ...markers.map((m) => m.length)) - 1;
  }

  /** Scans `chunk`; returns the markers seen for the first time in it. */
  feed(chunk: string): string[] {
    const text = this.tail + chunk;
    const found = this.markers.filter((m) => !this.seen.has(m) && text.includes(m));
    for (const marker of found) this.seen.add(marker);
    this.tail = text.slice(Math.max(0, text.length - this.keep));
    return found;
  }

  has(marker: string): boolean {
    return this.seen.has(marker);
  }
}
