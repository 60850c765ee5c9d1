// Real OpenSSH servers for the SSH tests: `/usr/sbin/sshd -D -e` on 127.0.0.1 with a temp config,
// host key and authorized key, each "host" with its own HOME and daemon run dir (sshd's SetEnv), so
// ~/.tether and the daemon's socket land in a temp dir. A node-less host runs sshd in a mount
// namespace where /usr/bin/node is whited out.
// The client side is an ssh config file (passed with -F) naming each host; known_hosts is temp too.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REMOTE_RUN_DIR_ENV } from '../../shared/remote-bundle';
import { FaultProxy, type FaultProxyOptions } from './fault-proxy';
import { pidAlive } from './pids';

/** OpenSSH's server; without it the SSH tests and the ssh/scp benchmark rows cannot run. */
export const SSHD_BINARY = '/usr/sbin/sshd';
const SSHD = SSHD_BINARY;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function keygen(file: string, passphrase = ''): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', 'tether-test', '-f', file]);
}

/** Pids whose parent chain leads to `root` (the listener's per-connection children). */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = [];
  const walk = (pid: number): void => {
    for (const [child, parent] of parents) {
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return found;
}

/** Pids of processes started on a test host: their environment holds that host's HOME. */
export function pidsWithHome(home: string): number[] {
  const needle = Buffer.from(`HOME=${home}\0`);
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`).includes(needle)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

async function killAll(pids: number[]): Promise<void> {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  const deadline = Date.now() + 10_000;
  while (pids.some(pidAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

export interface SshdOptions {
  /** Alias in the client config (default tether-test). */
  alias?: string;
  /** Hide node from the host (a whiteout over /usr/bin/node in sshd's mount namespace). */
  noNode?: boolean;
  /** Contents of the host's ~/.bashrc (e.g. login noise). */
  bashrc?: string;
  /** A host key file to reuse (to play the same host again), else a fresh one. */
  hostKey?: string;
  /** Client key to authorize (default: the client's plain key). */
  authorizedKey?: string;
  /** The client's agent socket for this host (its IdentityAgent), instead of none. */
  identityAgent?: string;
  /** More variables sshd sets in every session on this host (e.g. a DISPLAY to see dropped). */
  sessionEnv?: Record<string, string>;
  /** Extra Host-block lines for the client config (e.g. ProxyJump). */
  clientLines?: string[];
  /** Put a fault proxy between ssh and this sshd (the client config points at the proxy). */
  proxied?: boolean;
  /** How the proxy of a `proxied` host is built (e.g. a benchmark's larger pipe buffer). */
  proxyOptions?: Omit<FaultProxyOptions, 'target'>;
  /**
   * Leave the daemon's run directory to the host's own choice (/tmp/tether-<uid>-<home key>, or
   * its fallback) instead of a TETHER_RUN_DIR inside the home; the home key still keeps hosts apart.
   */
  defaultRunDir?: boolean;
  /**
   * Sign in as a fresh local account with this password (password authentication only). The
   * account is created with useradd and removed again by stop().
   */
  password?: string;
  /** sshd's LogLevel VERBOSE, which logs each session it starts (see startedSessions). */
  verboseLog?: boolean;
  /** More sshd_config lines (e.g. `AllowStreamLocalForwarding no`). */
  sshdLines?: string[];
}

export interface SshdHost {
  alias: string;
  /** The sshd's own port. */
  port: number;
  /** The port the client config names: the proxy's when proxied, else the sshd's. */
  clientPort: number;
  proxy: FaultProxy | null;
  /** The host's HOME: ~/.tether lives here. */
  home: string;
  hostKey: string;
  sshd: ChildProcess;
  /** Logins this sshd accepted so far. */
  servedConnections(): number;
  /**
   * Sessions (each command run, over a connection of its own or a master's) this sshd started so
   * far; only a host started with `verboseLog` logs them, others always say 0.
   */
  startedSessions(): number;
  /** Kills sshd, its per-connection children, and anything started with this HOME (daemons). */
  stop(): Promise<void>;
}

/** The client side of the tests: keys, known_hosts and the ssh config file every host is added to. */
export class SshTestRig {
  readonly dir = mkdtempSync(path.join(os.tmpdir(), 'tether-ssh-'));
  readonly configFile = path.join(this.dir, 'ssh_config');
  readonly knownHosts = path.join(this.dir, 'known_hosts');
  readonly clientKey = path.join(this.dir, 'id_client');
  readonly passphraseKey = path.join(this.dir, 'id_passphrase');
  static readonly PASSPHRASE = 'correct horse battery';
  private readonly hosts: SshdHost[] = [];

  constructor() {
    keygen(this.clientKey);
    keygen(this.passphraseKey, SshTestRig.PASSPHRASE);
    writeFileSync(this.configFile, '');
    writeFileSync(this.knownHosts, '');
    // The daemon's privilege-separation directory.
    mkdirSync('/run/sshd', { recursive: true });
  }

  /** ssh options that make a transport use this rig's config (and nothing of the real ~/.ssh). */
  get sshOptions(): string[] {
    return ['-F', this.configFile];
  }

  /** Trusts `host`'s key in known_hosts, as a user who connected before would. */
  trustHost(host: SshdHost): void {
    const pub = readFileSync(`${host.hostKey}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
    appendFileSync(this.knownHosts, `[127.0.0.1]:${host.clientPort} ${pub}\n`);
  }

  async startHost(options: SshdOptions = {}): Promise<SshdHost> {
    const alias = options.alias ?? 'tether-test';
    const dir = mkdtempSync(path.join(this.dir, `${alias}-`));
    const home = path.join(dir, 'home');
    mkdirSync(home);
    if (options.bashrc !== undefined) writeFileSync(path.join(home, '.bashrc'), options.bashrc);
    let hostKey = options.hostKey;
    if (!hostKey) {
      hostKey = path.join(dir, 'host_ed25519');
      keygen(hostKey);
    }
    const account = options.password !== undefined ? createAccount(home, options.password) : null;
    const authorized = path.join(dir, 'authorized_keys');
    writeFileSync(authorized, readFileSync(`${options.authorizedKey ?? this.clientKey}.pub`));
    const port = await freePort();
    const config = path.join(dir, 'sshd_config');
    writeFileSync(
      config,
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${hostKey}`,
        `PidFile ${path.join(dir, 'sshd.pid')}`,
        'UsePAM no',
        'StrictModes no',
        'PermitRootLogin yes',
        `AuthorizedKeysFile ${authorized}`,
        `PasswordAuthentication ${account ? 'yes' : 'no'}`,
        'KbdInteractiveAuthentication no',
        'PrintMotd no',
        // Every probe, upload and bridge is a session on one connection.
        'MaxSessions 64',
        // Every host is the same uid here, so each gets its own daemon run dir too: by default all
        // would share /tmp/tether-<uid>, and one host (or another test run) would reach another's daemon.
        (options.defaultRunDir
          ? `SetEnv HOME=${home}`
          : `SetEnv HOME=${home} ${REMOTE_RUN_DIR_ENV}=${path.join(home, '.tether-run')}`) +
          Object.entries(options.sessionEnv ?? {})
            .map(([name, value]) => ` ${name}=${value}`)
            .join(''),
        // Today's scp speaks SFTP to the server (the transfer benchmark and any scp test need it).
        'Subsystem sftp internal-sftp',
        // INFO logs each accepted login, which servedConnections() counts; VERBOSE each session too.
        `LogLevel ${options.verboseLog ? 'VERBOSE' : 'INFO'}`,
        ...(options.sshdLines ?? []),
        '',
      ].join('\n'),
    );
    const argv = [SSHD, '-D', '-e', '-f', config];
    let sshd: ChildProcess;
    if (options.noNode) {
      const upper = path.join(dir, 'overlay-upper');
      const work = path.join(dir, 'overlay-work');
      mkdirSync(upper);
      mkdirSync(work);
      // A character device 0/0 in an overlay's upper dir hides the file below it.
      execFileSync('mknod', [path.join(upper, 'node'), 'c', '0', '0']);
      const mount = `mount -t overlay overlay -o lowerdir=/usr/bin,upperdir=${upper},workdir=${work} /usr/bin`;
      sshd = spawn(
        'unshare',
        ['-m', '--propagation', 'private', 'sh', '-c', `${mount} && exec "$@"`, 'sh', ...argv],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
    } else {
      sshd = spawn(argv[0] ?? SSHD, argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    }
    let stderr = '';
    sshd.stderr?.setEncoding('utf8');
    sshd.stderr?.on('data', (d: string) => {
      stderr += d;
    });
    await waitForPort(port, () => (sshd.exitCode !== null ? `sshd exited: ${stderr}` : null));
    const proxy = options.proxied
      ? await FaultProxy.start({ ...options.proxyOptions, target: { host: '127.0.0.1', port } })
      : null;
    const clientPort = proxy?.port ?? port;

    appendFileSync(
      this.configFile,
      [
        `Host ${alias}`,
        '  HostName 127.0.0.1',
        `  Port ${clientPort}`,
        `  User ${account ?? 'root'}`,
        ...(account ? ['  PubkeyAuthentication no', '  PreferredAuthentications password'] : []),
        `  IdentityFile ${this.clientKey}`,
        `  IdentityFile ${this.passphraseKey}`,
        '  IdentitiesOnly yes',
        `  IdentityAgent ${options.identityAgent ?? 'none'}`,
        `  UserKnownHostsFile ${this.knownHosts}`,
        '  GlobalKnownHostsFile /dev/null',
        ...(options.clientLines ?? []).map((line) => `  ${line}`),
        '',
      ].join('\n'),
    );
    const host: SshdHost = {
      alias,
      port,
      clientPort,
      proxy,
      home,
      hostKey,
      sshd,
      servedConnections: () =>
        stderr.split('\n').filter((line) => line.includes('Accepted publickey')).length,
      startedSessions: () => stderr.split('\n').filter((line) => line.includes('Starting session:')).length,
      stop: async () => {
        await proxy?.close();
        const pid = sshd.pid;
        const started = [...(pid ? [pid, ...descendants(pid)] : []), ...pidsWithHome(home)];
        await killAll(started);
        // Daemons that were starting while we looked (a bridge forks one detached): looked for
        // until two scans a moment apart find none, so none outlives the test on a loaded machine.
        for (let quiet = 0, rounds = 0; quiet < 2 && rounds < 50; rounds++) {
          const late = pidsWithHome(home);
          quiet = late.length === 0 ? quiet + 1 : 0;
          await killAll(late);
          await new Promise((r) => setTimeout(r, 100));
        }
        if (account) execFileSync('userdel', [account]);
      },
    };
    this.hosts.push(host);
    return host;
  }

  async close(): Promise<void> {
    for (const host of this.hosts.splice(0)) await host.stop();
    forgetDaemonSockets(this.dir);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Removes what connects remembered of this rig's hosts' daemon sockets (ssh-master.ts: the
 * `d-<hash>-<bundle>` files in /tmp/tether-<uid>), each naming a socket under `dir`.
 */
function forgetDaemonSockets(dir: string): void {
  const root = path.join('/tmp', `tether-${os.userInfo().uid}`);
  let names: string[];
  try {
    names = readdirSync(root).filter((name) => name.startsWith('d-'));
  } catch {
    return;
  }
  for (const name of names) {
    try {
      if (readFileSync(path.join(root, name), 'utf8').includes(dir))
        rmSync(path.join(root, name), { force: true });
    } catch {
      // Gone meanwhile, or a socket (a link's, never a memory).
    }
  }
}

/** A local account for password sign-in whose home is `home`; returns its name. */
function createAccount(home: string, password: string): string {
  // The account must be able to reach its home inside our (0700) temp dirs.
  for (
    let dir = path.dirname(home);
    dir !== path.dirname(dir) && dir !== os.tmpdir();
    dir = path.dirname(dir)
  ) {
    chmodSync(dir, 0o755);
  }
  const name = `tether-t${process.pid % 100_000}-${Math.floor(Math.random() * 1e6)}`;
  execFileSync('useradd', ['--no-create-home', '--home-dir', home, '--shell', '/bin/sh', name]);
  execFileSync('chpasswd', [], { input: `${name}:${password}\n` });
  execFileSync('chown', [name, home]);
  return name;
}

async function waitForPort(port: number, failed: () => string | null): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const problem = failed();
    if (problem) throw new Error(problem);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`sshd did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Pids of Tether daemons running on `host` (started by a bridge, detached, with its HOME). */
export function daemonPids(host: SshdHost): number[] {
  return pidsWithHome(host.home).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('daemon');
    } catch {
      return false;
    }
  });
}

/** The fault proxy in front of a host started with one (fails the test when it has none). */
export function proxyOf(host: SshdHost): FaultProxy {
  if (!host.proxy) throw new Error('the host has no proxy');
  return host.proxy;
}
