// Runs the built server bundle (dist/remote/) the way an SSH host does: copied to a temp directory
// outside the repository (so no node_modules is up its tree), with a run directory of its own
// ($TETHER_RUN_DIR), and bridges as child processes speaking JSON-RPC through their stdio. Every daemon it
// started is found by its command line (the unique bundle path) and killed by pid in cleanup().
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { afterEach } from 'vitest';
import {
  closeSync,
  constants,
  cpSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REMOTE_RUN_DIR_ENV, remoteBundleId, type RemoteBundleManifest } from '../../../shared/remote-bundle';
import { pidAlive } from '../../support/pids';
import { RpcPeer } from '../../support/rpc-peer';
import { waitFor } from '../../support/wait';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const BUILT_BUNDLE = path.join(repoRoot, 'dist', 'remote');

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Bridge {
  child: ChildProcess;
  client: RpcPeer;
  finished: Promise<Finished>;
}

function collect(child: ChildProcess, stdout = true): Promise<Finished> {
  let out = '';
  let err = '';
  if (stdout) child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stdout: out, stderr: err })),
  );
}

export class DaemonRig {
  readonly bundleDir: string;
  readonly scratchDir: string;
  readonly manifest: RemoteBundleManifest;
  private readonly children = new Set<ChildProcess>();
  private fifos = 0;

  constructor() {
    if (!existsSync(path.join(BUILT_BUNDLE, 'manifest.json'))) {
      throw new Error(`${BUILT_BUNDLE} is missing; run \`node scripts/build.mjs\` first`);
    }
    this.bundleDir = mkdtempSync(path.join(os.tmpdir(), 'tether-bundle-'));
    cpSync(BUILT_BUNDLE, this.bundleDir, { recursive: true });
    // Short on purpose: the socket path must stay under the ~107-byte sun_path limit.
    this.scratchDir = mkdtempSync('/tmp/trd-');
    this.manifest = JSON.parse(readFileSync(path.join(this.bundleDir, 'manifest.json'), 'utf8'));
  }

  get id(): string {
    return remoteBundleId(this.manifest);
  }

  get runDir(): string {
    return path.join(this.scratchDir, 'tether');
  }

  file(ext: 'sock' | 'pid' | 'log' | 'lock'): string {
    return path.join(this.runDir, `${this.id}.${ext}`);
  }

  env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return { ...process.env, [REMOTE_RUN_DIR_ENV]: this.runDir, ...extra };
  }

  /** `node server.mjs ARGS…` with stdio pipes, tracked for cleanup. */
  spawn(args: string[], env: NodeJS.ProcessEnv = this.env()): ChildProcess {
    const child = spawn(process.execPath, [path.join(this.bundleDir, 'server.mjs'), ...args], {
      cwd: this.bundleDir,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  /** Runs a subcommand to its end. */
  run(args: string[], env?: NodeJS.ProcessEnv): Promise<Finished> {
    const child = this.spawn(args, env);
    child.stdin?.end();
    return collect(child);
  }

  bridge(args: string[] = []): Bridge {
    const child = this.spawn(['bridge', ...args]);
    return { child, client: RpcPeer.overStdio(child), finished: collect(child, false) };
  }

  /**
   * A bridge whose stdin and stdout are pipes (named ones in the scratch directory), as an exec
   * session or sshd gives it, rather than the socket pair of Node's stdio: the daemon may adopt
   * them. `pipes` are their paths, for a look at who holds them open. `wrap` runs the bridge under
   * another command (`unshare …`), which passes the pipes on.
   */
  bridgeOverPipes(
    args: string[] = [],
    wrap: string[] = [],
  ): Bridge & { pipes: { stdin: string; stdout: string } } {
    const pipes = {
      stdin: path.join(this.scratchDir, `in-${this.fifos}`),
      stdout: path.join(this.scratchDir, `out-${this.fifos++}`),
    };
    execFileSync('mkfifo', ['-m', '600', pipes.stdin, pipes.stdout]);
    // Each read end first, without blocking, so the write end opens at once.
    const bridgeIn = openSync(pipes.stdin, constants.O_RDONLY | constants.O_NONBLOCK);
    const ourIn = openSync(pipes.stdin, constants.O_WRONLY);
    const ourOut = openSync(pipes.stdout, constants.O_RDONLY | constants.O_NONBLOCK);
    const bridgeOut = openSync(pipes.stdout, constants.O_WRONLY);
    let child: ChildProcess;
    try {
      const argv = [...wrap, process.execPath, path.join(this.bundleDir, 'server.mjs'), 'bridge', ...args];
      child = spawn(argv[0]!, argv.slice(1), {
        cwd: this.bundleDir,
        env: this.env(),
        stdio: [bridgeIn, bridgeOut, 'pipe'],
      });
    } finally {
      closeSync(bridgeIn);
      closeSync(bridgeOut);
    }
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    const input = new net.Socket({ fd: ourIn, readable: false, writable: true });
    const output = new net.Socket({ fd: ourOut, readable: true, writable: false });
    return { child, client: RpcPeer.overStreams(input, output), finished: collect(child, false), pipes };
  }

  /** Pids of the daemons running from this rig's bundle (none other has its path). */
  daemonPids(): number[] {
    const marker = `${path.join(this.bundleDir, 'server.mjs')}\0daemon\0`;
    const pids: number[] = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(marker)) pids.push(Number(entry));
      } catch {
        // The process ended while we looked.
      }
    }
    // A daemon's child between fork and exec (spawning a helper) still shows the daemon's command
    // line: it is not a second daemon.
    return pids.filter((pid) => !pids.includes(parentOf(pid)));
  }

  pidfilePid(): number | null {
    try {
      return Number(readFileSync(this.file('pid'), 'utf8').trim());
    } catch {
      return null;
    }
  }

  /** The one daemon of this rig, once it answers on its socket. */
  async daemonPid(): Promise<number> {
    await waitFor(() => this.pidfilePid() !== null && existsSync(this.file('sock')), 'daemon socket');
    return this.pidfilePid()!;
  }

  async cleanup(): Promise<void> {
    for (const child of this.children) child.kill('SIGKILL');
    const daemons = this.daemonPids();
    for (const pid of daemons) process.kill(pid, 'SIGTERM');
    await waitFor(() => daemons.every((pid) => !pidAlive(pid)), 'daemons gone');
    rmSync(this.bundleDir, { recursive: true, force: true });
    rmSync(this.scratchDir, { recursive: true, force: true });
  }
}

/** initialize + a tty process echoing what it reads, through `client`. */
export async function startEcho(client: RpcPeer, processId = 'echo'): Promise<string> {
  const sessionId = (await client.handshake()).sessionId;
  await client.call('process/start', {
    processId,
    argv: ['/bin/cat'],
    cwd: 'file:///tmp',
    env: {},
    tty: true,
  });
  return sessionId;
}

/** Registers an afterEach that cleans up every rig made in the test; returns the maker. */
export function daemonRigsEachTest(): () => DaemonRig {
  const rigs: DaemonRig[] = [];
  afterEach(async () => {
    await Promise.all(rigs.splice(0).map((rig) => rig.cleanup()));
  });
  return () => {
    const rig = new DaemonRig();
    rigs.push(rig);
    return rig;
  };
}

/** The parent pid of `pid` (field 4 of /proc/PID/stat, after the parenthesised name), or -1. */
function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
}
