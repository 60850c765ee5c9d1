// One OpenSSH master connection per SSH environment (ControlMaster in a private directory). It
// authenticates once, through askpass, and every probe, upload and bridge rides on it as a mux
// client, so a reconnect over a live master needs no new handshake and never a second prompt.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  SSH_CONNECT_TIMEOUT_S,
  SSH_CONNECTION_FAILED_EXIT,
  SSH_SERVER_ALIVE_COUNT,
  SSH_SERVER_ALIVE_INTERVAL_S,
  SSH_SHARED_MASTER_PERSIST_S,
} from './ssh-constants';
import type {
  DirectMemory,
  DirectSocketRoad,
  ForwardedSocket,
  HostShell,
} from '../../remote-host/host-shell';
import { sharedMasterRoot } from './private-dir';
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

/**
 * argv of a one-off ssh command to the target on a connection of its own that never prompts (no
 * master: for a quick question to a host, like its container list).
 */
export function batchSshArgv(target: SshTarget, remoteCommand: string): string[] {
  return ['ssh', '-T', '-o', 'BatchMode=yes', ...targetArgs(target), target.destination, remoteCommand];
}

/** How long `ssh -G` may take to say what the user's config sets for the host. */
const SSH_CONFIG_QUERY_TIMEOUT_MS = 10_000;

/** What `ssh -G` resolved for a target, as the master needs it. */
export interface ResolvedTarget {
  /** The agent is forwarded (see forwardsAgent). */
  forwardsAgent: boolean;
  /**
   * A short hash of everything ssh resolved (user, host name, port, proxy, keys, …), naming the
   * target's shared master: two destinations that resolve alike share one, any difference not.
   * Null if ssh could not tell.
   */
  key: string | null;
}

/** Asks `ssh -G` what the user's config and options resolve the target to. */
export async function resolveTarget(
  target: SshTarget,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedTarget> {
  try {
    const { stdout } = await promisify(execFile)(
      'ssh',
      ['-G', ...targetArgs(target), '--', target.destination],
      { env, timeout: SSH_CONFIG_QUERY_TIMEOUT_MS },
    );
    const value = /^forwardagent (.*)$/m.exec(stdout)?.[1]?.trim();
    return {
      forwardsAgent: value !== undefined && value !== '' && value !== 'no',
      key: createHash('sha256').update(stdout).digest('hex').slice(0, SHARED_MASTER_KEY_LENGTH),
    };
  } catch {
    return { forwardsAgent: false, key: null };
  }
}

/** Hex digits of the resolved target's hash in a shared master's socket name (short: sun_path). */
const SHARED_MASTER_KEY_LENGTH = 16;

/**
 * Whether the user's ssh config (and their own options, `-A` or `-o ForwardAgent=…` included)
 * forwards the agent to the target: `ssh -G` prints the resolved `forwardagent` (yes, no, or the
 * socket or $VARIABLE to forward). If ssh cannot tell, nothing is forwarded.
 */
export async function forwardsAgent(
  target: SshTarget,
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  return (await resolveTarget(target, env)).forwardsAgent;
}

/** How often a starting master is asked (`ssh -O check`) whether it is up yet. */
const MASTER_CHECK_POLL_MS = 100;

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

/** How long a host's refusal to forward to the daemon's socket is believed before trying again. */
const DIRECT_REFUSAL_TRUSTED_MS = 60 * 60 * 1000;

export class SshMaster implements HostShell {
  readonly channelFailureExit = SSH_CONNECTION_FAILED_EXIT;

  private child: ChildProcess | null = null;
  /** Masters this client sent SIGTERM. */
  private readonly stopped = new WeakSet<ChildProcess>();
  /** Set by the bootstrap when the user cancels a prompt, so the failure says so. */
  cancelled = false;
  /** What the user's config says about agent forwarding to this host (asked at each start). */
  forwardsAgent = false;
  /** The socket in use: the private one, or the shared master's. */
  private controlPath: string;
  /** The master in use is a shared one, which outlives us (ControlPersist), not our child. */
  private shared = false;
  /** The hash of what ssh -G resolved (see ResolvedTarget.key), naming what is remembered of the host. */
  private resolvedKey: string | null = null;

  /**
   * `sharedRoot`: where shared per-host masters live (the CLI's; see SSH_SHARED_MASTER_PERSIST_S),
   * or null for a master of this connection's own at `privatePath`, which ends with it (the app's).
   */
  constructor(
    private readonly target: SshTarget,
    private readonly privatePath: string,
    private readonly env: Record<string, string>,
    private readonly onLog: (line: string) => void,
    private readonly sharedRoot: string | null = null,
  ) {
    this.controlPath = privatePath;
  }

  get hostName(): string {
    return this.target.destination;
  }

  /** Our own master process is running (it may still be stuck on a dead network). */
  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Starts the master and resolves once it is authenticated and answers on its control socket;
   * a shared master that answers already is used as it is. `retire`: the last master was suspect,
   * so a shared one stops taking new sessions (its running ones go on) and a new one is started.
   */
  async start(onStage: (event: SshStageEvent) => void, retire = false): Promise<void> {
    await this.stopAndWait();
    this.cancelled = false;
    onStage({ stage: 'connecting', detail: `ssh ${this.target.destination}` });
    const resolved = await resolveTarget(this.target, { ...process.env, ...this.env });
    this.forwardsAgent = resolved.forwardsAgent;
    this.resolvedKey = resolved.key;
    if (this.forwardsAgent) this.onLog('ssh: your ssh config forwards the agent to this host');
    this.shared = this.sharedRoot !== null && resolved.key !== null;
    this.controlPath =
      this.sharedRoot !== null && resolved.key !== null
        ? path.join(this.sharedRoot, `m-${resolved.key}`)
        : this.privatePath;
    if (this.shared) {
      if (retire) await this.control('stop');
      const running = await this.control('check');
      if (running.ok) {
        this.onLog(
          `reusing the SSH connection to ${hostLabel(this.target)} (master ${running.said || 'running'}, ${this.controlPath})`,
        );
        return;
      }
    }
    // A master that was killed leaves its socket behind. ssh would take the stale file as another
    // master's and run without multiplexing, so every later step would sign in on its own.
    if (existsSync(this.controlPath) && !(await this.answers())) rmSync(this.controlPath, { force: true });
    const child = spawn(
      'ssh',
      [
        '-v',
        '-N',
        // A shared master: `auto` makes a second CLI that lost the race to start one use the
        // winner's, and ControlPersist backgrounds it, to end once idle that long.
        '-o',
        `ControlMaster=${this.shared ? 'auto' : 'yes'}`,
        '-o',
        `ControlPersist=${this.shared ? SSH_SHARED_MASTER_PERSIST_S : 'no'}`,
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
        // X11 is not forwarded (docs/ssh.md); the agent only when the user's config says so, and
        // then only to the bridge (see commandArgv).
        '-o',
        'ForwardX11=no',
        ...(this.forwardsAgent ? [] : ['-o', 'ForwardAgent=no']),
        ...targetArgs(this.target),
        this.target.destination,
      ],
      // No stdin and its own session (no controlling terminal): every question goes to askpass.
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...this.env }, detached: true },
    );
    this.child = child;
    let stderr = '';
    let authenticated = false;
    let lostRace = false;
    const lines = new LineSplitter((line) => {
      // Signing in starts once the host key is settled: ssh says "Authenticating to" before that,
      // and a host-key question after it would look like a new attempt.
      if (/^debug1: (SSH2_MSG_SERVICE_ACCEPT received|Authentications that can continue)/.test(line)) {
        onStage({ stage: 'authenticating' });
      }
      if (/^Authenticated to /.test(line) || /^debug1: Authentication succeeded/.test(line)) {
        authenticated = true;
      }
      // Another CLI's shared master took the socket first: ours would go on as a plain connection.
      if (this.shared && /already exists, disabling multiplexing/.test(line)) {
        lostRace = true;
        child.kill('SIGTERM');
      }
      // Debug lines tell the story of the connect; after it, only ssh's own warnings matter.
      if (!authenticated || !line.startsWith('debug')) this.onLog(`ssh: ${line}`);
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (data: string) => {
      if (!authenticated) stderr += data;
      lines.push(data);
    });

    // Up means authenticated and multiplexing: the master answers on its socket, not just made it.
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      let poll: NodeJS.Timeout | null = null;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        if (poll) clearTimeout(poll);
        child.off('exit', onExit);
        return true;
      };
      const check = (): void => {
        poll = null;
        const probing = existsSync(this.controlPath) ? this.answers() : Promise.resolve(false);
        void probing.then((up) => {
          if (settled) return;
          if (up && settle()) resolve();
          else poll = setTimeout(check, MASTER_CHECK_POLL_MS);
        });
      };
      const onExit = (code: number | null): void => {
        lines.flush();
        // A shared master backgrounds itself once up: this process then ends with 0 (or, having
        // lost the race, is ended by us), and the master that answers is the one to use.
        if (this.shared && (code === 0 || lostRace)) {
          void this.answers().then((up) => {
            if (!settle()) return;
            if (up) resolve();
            else reject(masterFailure(stderr, this.cancelled, hostLabel(this.target)));
          });
          return;
        }
        if (!settle()) return;
        reject(masterFailure(stderr, this.cancelled, hostLabel(this.target)));
      };
      // Our own master stays in the foreground: it is up once it answers.
      if (!this.shared) poll = setTimeout(check, MASTER_CHECK_POLL_MS);
      child.once('exit', onExit);
      child.once('error', (error) => {
        if (!settle()) return;
        reject(
          new SshError(
            'transport',
            'connecting',
            `Could not run ssh (is OpenSSH installed?): ${error.message}`,
          ),
        );
      });
    });
    await this.setInteractive();
    if (this.shared) {
      // The master lives on in the background and still holds its stderr: let go of it, or this
      // process could not exit before the master does (ssh ignores the broken pipe).
      child.stderr?.destroy();
      child.unref();
      this.child = null;
      return;
    }
    child.once('exit', (code, signal) => {
      // A master that ended by itself is said even when its successor is on the way already (a
      // direct link over it closes with it, so the reconnect may start before this exit is seen);
      // one we stopped only if it was still the current one. ssh ends on our SIGTERM with exit 0
      // rather than by the signal, so a stopped master that exits otherwise had ended by itself.
      const stoppedByUs = this.stopped.has(child) && (code === 0 || signal !== null);
      if (this.child === child || !stoppedByUs) this.onLog(`ssh master ended (${signal ?? `exit ${code}`})`);
    });
  }

  /**
   * Runs `true` under a pty as the connection's first session. sshd decides once per connection,
   * at its first session, whether the connection is interactive (a pty) and only then sets
   * TCP_NODELAY; otherwise a small message that follows another before its ACK (a keystroke's
   * echo after the write's answer) waits for the peer's delayed ACK, some 40 ms. The bridge used
   * to merge such messages by chance; a direct link relays them as they come. Best effort: a host
   * that refuses a pty keeps working, only slower to echo.
   */
  private setInteractive(): Promise<void> {
    return new Promise((resolve) => {
      const argv = this.commandArgv('true');
      argv.splice(1, 1, '-tt');
      const run = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
      const timer = setTimeout(() => run.kill('SIGKILL'), SSH_CONNECT_TIMEOUT_S * 1000);
      run.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      run.once('error', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Asks the master whether it still holds its connection (`ssh -O check`). */
  async check(): Promise<boolean> {
    return (this.shared || this.running) && (await this.answers());
  }

  /** Whether a master answers on the control socket (`ssh -O check`), ours or a leftover. */
  private async answers(): Promise<boolean> {
    return (await this.control('check')).ok;
  }

  /** `ssh -O <command>` to the master on the socket; `said` is its answer ("pid=1234"). */
  private control(
    command: 'check' | 'stop' | 'forward' | 'cancel',
    extra: string[] = [],
  ): Promise<{ ok: boolean; said: string; stderr: string }> {
    return new Promise((resolve) => {
      const probe = spawn(
        'ssh',
        ['-o', `ControlPath=${this.controlPath}`, '-O', command, ...extra, this.target.destination],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      probe.stderr.setEncoding('utf8');
      probe.stderr.on('data', (data: string) => (stderr += data));
      probe.once('exit', (code) =>
        resolve({ ok: code === 0, said: /\((pid=\d+)\)/.exec(stderr)?.[1] ?? '', stderr }),
      );
      probe.once('error', () => resolve({ ok: false, said: '', stderr: '' }));
    });
  }

  /**
   * argv that runs `remoteCommand` on the host over this master, never prompting. Only with
   * `agent` (the bridge, when the user forwards the agent) does its session get the agent.
   */
  commandArgv(remoteCommand: string, options: { agent?: boolean } = {}): string[] {
    const agent = options.agent === true && this.forwardsAgent;
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
      '-o',
      'ForwardX11=no',
      ...(agent ? [] : ['-o', 'ForwardAgent=no']),
      ...targetArgs(this.target),
      this.target.destination,
      remoteCommand,
    ];
  }

  /**
   * Links reach the daemon's socket through the master's streamlocal forwarding (`ssh -O forward
   * -L local.sock:remote.sock`): the local socket is the master's, in this login's private
   * directory, so no mux client and no bridge sit between the link and sshd.
   */
  readonly direct: DirectSocketRoad = {
    unavailable: () =>
      this.forwardsAgent ? 'your ssh config forwards the agent, which only the bridge carries' : null,
    forward: (remoteSocket) => this.forwardSocket(remoteSocket),
    recall: (bundleId) => this.recallDirect(bundleId),
    remember: (bundleId, memory) => this.rememberDirect(bundleId, memory),
  };

  private async forwardSocket(remoteSocket: string): Promise<ForwardedSocket> {
    const localPath = path.join(path.dirname(this.privatePath), `d-${randomBytes(4).toString('hex')}.sock`);
    const spec = `${localPath}:${remoteSocket}`;
    const forwarded = await this.control('forward', ['-L', spec]);
    if (!forwarded.ok) {
      rmSync(localPath, { force: true });
      throw new SshError(
        'transport',
        'starting',
        `The SSH master would not forward a local socket to ${remoteSocket}${forwarded.stderr.trim() ? `: ${forwarded.stderr.trim()}` : ''}.`,
      );
    }
    let closed = false;
    return {
      localPath,
      close: () => {
        if (closed) return;
        closed = true;
        // The master removes its listener (and the file); should it be gone, the file is ours to remove.
        void this.control('cancel', ['-L', spec]).then(() => rmSync(localPath, { force: true }));
      },
    };
  }

  /** Where what was learned of this host for `bundleId` is kept, beside the shared masters; null: nowhere. */
  private directMemoryFile(bundleId: string): string | null {
    if (this.resolvedKey === null || !/^[\w.-]+$/.test(bundleId)) return null;
    const root = sharedMasterRoot();
    return root === null ? null : path.join(root, `d-${this.resolvedKey}-${bundleId}`);
  }

  private recallDirect(bundleId: string): DirectMemory | null {
    const file = this.directMemoryFile(bundleId);
    if (file === null) return null;
    try {
      const memory = JSON.parse(readFileSync(file, 'utf8')) as { socket?: unknown; refused?: unknown };
      if (typeof memory.socket === 'string' && memory.socket.startsWith('/'))
        return { socket: memory.socket };
      if (memory.refused === true && Date.now() - statSync(file).mtimeMs < DIRECT_REFUSAL_TRUSTED_MS) {
        return { refused: true };
      }
    } catch {
      // Nothing remembered (or nothing readable).
    }
    return null;
  }

  private rememberDirect(bundleId: string, memory: DirectMemory): void {
    const file = this.directMemoryFile(bundleId);
    if (file === null) return;
    try {
      const draft = `${file}.${process.pid}`;
      writeFileSync(draft, JSON.stringify(memory), { mode: 0o600 });
      renameSync(draft, file);
    } catch {
      // A memory only saves a step next time.
    }
  }

  stop(): void {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      this.stopped.add(child);
      child.kill('SIGTERM');
    }
  }

  /** Stops the master and waits until it is gone, so its socket is not mistaken for the next one's. */
  private async stopAndWait(): Promise<void> {
    const child = this.child;
    this.stop();
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
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
