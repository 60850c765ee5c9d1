// Runs the bootstrap's small POSIX sh scripts on the host through its HostShell. A script travels as one
// line inside `exec /bin/sh -c '…'`, which every login shell (bash, zsh, fish, tcsh, dash) passes
// on unchanged; its results are framed by random markers, so login noise (.bashrc, MOTD) is ignored.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
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

/**
 * Runs `remoteCommand` through `shell`. `onStdout` sees all stdout so far each time more comes,
 * with the command's stdin to feed; without it, stdin is closed at once.
 */
export function runOnHost(
  shell: HostShell,
  remoteCommand: string,
  options: { onStdout?: (stdoutSoFar: string, stdin: Writable) => void } = {},
): Promise<RemoteRun> {
  const [program, ...args] = shell.commandArgv(remoteCommand);
  return new Promise((resolve, reject) => {
    const child = spawn(program ?? 'ssh', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (data: string) => {
      stdout += data;
      options.onStdout?.(stdout, child.stdin);
    });
    child.stderr.on('data', (data: string) => {
      stderr += data;
    });
    // A command that exits before reading all its input is not an error of ours.
    child.stdin.on('error', () => undefined);
    if (!options.onStdout) child.stdin.end();
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
