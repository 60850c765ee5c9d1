// One OpenSSH master connection per SSH environment (ControlMaster in a private directory). It
// authenticates once, through askpass, and every probe, upload and bridge rides on it as a mux
// client, so a reconnect over a live master needs no new handshake and never a second prompt.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  SSH_CONNECT_TIMEOUT_S,
  SSH_CONNECTION_FAILED_EXIT,
  SSH_SERVER_ALIVE_COUNT,
  SSH_SERVER_ALIVE_INTERVAL_S,
} from './ssh-constants';
import type { HostShell } from '../../remote-host/host-shell';
import { SshError } from './ssh-error';
import type { SshStageEvent } from './ssh-hooks';

/** Where to reach the host, as the user named it (the rest comes from their ssh config). */
export interface SshTarget {
  destination: string;
  port?: number;
  sshOptions?: string[];
}

/** Options shared by the master and its mux clients: the user's own plus Tether's fixed ones. */
function targetArgs(target: SshTarget): string[] {
  return [
    ...(target.port !== undefined ? ['-p', String(target.port)] : []),
    ...(target.sshOptions ?? []),
    // A RemoteCommand from the user's config would clash with the command we run.
    '-o',
    'RemoteCommand=none',
  ];
}

/** How often the master checks whether its control socket is there yet. */
const SOCKET_POLL_MS = 20;

/** The host as the user typed it, with its port when one was given: `box (port 2222)`. */
export function hostLabel(target: SshTarget): string {
  return target.port === undefined ? target.destination : `${target.destination} (port ${target.port})`;
}

/** ssh's stderr while the master fails, turned into the error the user sees. */
export function masterFailure(stderr: string, cancelled: boolean, destination: string): SshError {
  // ssh's version banner (printed at higher log levels) says nothing about what went wrong.
  const said = stderr
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('debug') && !/^OpenSSH_\S+/.test(line))
    .join('\n')
    .trim();
  const saying = said ? `\nssh said:\n${said}` : '';
  if (cancelled) {
    return new SshError('cancelled', 'authenticating', `Connecting to ${destination} was cancelled.`);
  }
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED/.test(stderr)) {
    return new SshError(
      'auth',
      'connecting',
      `The host key of ${destination} has changed, so Tether refuses to connect: someone may be ` +
        `intercepting the connection, or the host was reinstalled. If you know why it changed, remove ` +
        `the old key with ssh-keygen -R and connect again.${saying}`,
    );
  }
  if (/Host key verification failed/.test(stderr)) {
    return new SshError('auth', 'connecting', `The host key of ${destination} was not accepted.${saying}`);
  }
  if (/Permission denied|Too many authentication failures/.test(stderr)) {
    return new SshError('auth', 'authenticating', `Could not sign in to ${destination}.${saying}`);
  }
  return new SshError('transport', 'connecting', `Could not connect to ${destination}.${saying}`);
}

export class SshMaster implements HostShell {
  readonly channelFailureExit = SSH_CONNECTION_FAILED_EXIT;

  private child: ChildProcess | null = null;
  /** Set by the bootstrap when the user cancels a prompt, so the failure says so. */
  cancelled = false;

  constructor(
    private readonly target: SshTarget,
    private readonly controlPath: string,
    private readonly env: Record<string, string>,
    private readonly onLog: (line: string) => void,
  ) {}

  get hostName(): string {
    return this.target.destination;
  }

  /** The master process is running (it may still be stuck on a dead network). */
  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the master and resolves once it is authenticated and its control socket is up. */
  async start(onStage: (event: SshStageEvent) => void): Promise<void> {
    this.stop();
    this.cancelled = false;
    onStage({ stage: 'connecting', detail: `ssh ${this.target.destination}` });
    const child = spawn(
      'ssh',
      [
        '-v',
        '-N',
        '-o',
        'ControlMaster=yes',
        '-o',
        'ControlPersist=no',
        '-o',
        `ControlPath=${this.controlPath}`,
        '-o',
        `ServerAliveInterval=${SSH_SERVER_ALIVE_INTERVAL_S}`,
        '-o',
        `ServerAliveCountMax=${SSH_SERVER_ALIVE_COUNT}`,
        '-o',
        `ConnectTimeout=${SSH_CONNECT_TIMEOUT_S}`,
        '-o',
        'BatchMode=no',
        // Unknown hosts are asked about (through askpass); changed keys are refused by ssh itself.
        '-o',
        'StrictHostKeyChecking=ask',
        // Tether needs none of the user's port forwards, and a second copy would clash with theirs.
        '-o',
        'ClearAllForwardings=yes',
        ...targetArgs(this.target),
        this.target.destination,
      ],
      // No stdin and its own session (no controlling terminal): every question goes to askpass.
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...this.env }, detached: true },
    );
    this.child = child;
    let stderr = '';
    let authenticated = false;
    const lines = new LineSplitter((line) => {
      if (/^debug1: Authenticating to /.test(line)) onStage({ stage: 'authenticating' });
      if (/^Authenticated to /.test(line) || /^debug1: Authentication succeeded/.test(line)) {
        authenticated = true;
      }
      // Debug lines tell the story of the connect; after it, only ssh's own warnings matter.
      if (!authenticated || !line.startsWith('debug')) this.onLog(`ssh: ${line}`);
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (data: string) => {
      if (!authenticated) stderr += data;
      lines.push(data);
    });

    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        if (existsSync(this.controlPath)) {
          clearInterval(poll);
          child.off('exit', onExit);
          resolve();
        }
      }, SOCKET_POLL_MS);
      const onExit = (): void => {
        clearInterval(poll);
        lines.flush();
        reject(masterFailure(stderr, this.cancelled, hostLabel(this.target)));
      };
      child.once('exit', onExit);
      child.once('error', (error) => {
        clearInterval(poll);
        reject(
          new SshError(
            'transport',
            'connecting',
            `Could not run ssh (is OpenSSH installed?): ${error.message}`,
          ),
        );
      });
    });
    child.once('exit', (code, signal) => {
      if (this.child === child) this.onLog(`ssh master ended (${signal ?? `exit ${code}`})`);
    });
  }

  /** Asks the running master whether it still holds its connection (`ssh -O check`). */
  async check(): Promise<boolean> {
    if (!this.running) return false;
    const status = await new Promise<number | null>((resolve) => {
      const probe = spawn(
        'ssh',
        ['-o', `ControlPath=${this.controlPath}`, '-O', 'check', this.target.destination],
        {
          stdio: 'ignore',
        },
      );
      probe.once('exit', (code) => resolve(code));
      probe.once('error', () => resolve(null));
    });
    return status === 0;
  }

  /** argv that runs `remoteCommand` on the host over this master, never prompting. */
  commandArgv(remoteCommand: string): string[] {
    return [
      'ssh',
      '-T',
      '-o',
      'ControlMaster=no',
      '-o',
      `ControlPath=${this.controlPath}`,
      // Should the master be gone, ssh would connect on its own: it must not prompt for that.
      '-o',
      'BatchMode=yes',
      ...targetArgs(this.target),
      this.target.destination,
      remoteCommand,
    ];
  }

  stop(): void {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }
}

/** Calls `onLine` for each complete line of a text stream. */
class LineSplitter {
  private rest = '';
  constructor(private readonly onLine: (line: string) => void) {}

  push(text: string): void {
    const parts = (this.rest + text).split('\n');
    this.rest = parts.pop() ?? '';
    for (const part of parts) this.onLine(part.replace(/\r$/, ''));
  }

  flush(): void {
    if (this.rest) this.onLine(this.rest);
    this.rest = '';
  }
}
