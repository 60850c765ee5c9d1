// A throwaway OpenSSH server on 127.0.0.1 for the echo comparison: temp host key, temp client key in a
// temp authorized_keys, a free port, started and stopped by pid. Never touches the system's sshd.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const SSHD_BINARY = '/usr/sbin/sshd';
/** How long sshd gets to accept connections after it was started. */
const SSHD_READY_TIMEOUT_MS = 10_000;
const SSHD_STOP_GRACE_MS = 3_000;

class SshUnavailableError extends Error {
  readonly code = 'SSH_UNAVAILABLE';
}

export interface TempSshd {
  port: number;
  pid: number;
  /** argv of an `ssh -tt` client that runs `remoteCommand` on this server. */
  clientArgv(remoteCommand: string): string[];
  /** argv of `scp` through `port` (this server's, or a proxy's in front of it); remote paths as `remote(path)`. */
  scpArgv(port: number, args: string[]): string[];
  /** `user@127.0.0.1:path`, a remote path for scpArgv. */
  remote(remotePath: string): string;
  version: string;
  stop(): Promise<void>;
}

/** A port that was free on 127.0.0.1 a moment ago. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startSshd(): Promise<TempSshd> {
  if (!existsSync(SSHD_BINARY)) {
    throw new SshUnavailableError(
      `${SSHD_BINARY} is missing; install Debian's openssh-server (apt-get install -y openssh-server)`,
    );
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-bench-sshd-'));
  const hostKey = path.join(dir, 'host_ed25519');
  const clientKey = path.join(dir, 'client_ed25519');
  for (const key of [hostKey, clientKey]) {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key], { stdio: 'ignore' });
  }
  const authorizedKeys = path.join(dir, 'authorized_keys');
  writeFileSync(authorizedKeys, readFileSync(`${clientKey}.pub`), { mode: 0o600 });
  // sshd refuses to start without its privilege separation directory.
  if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const config = path.join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `AuthorizedKeysFile ${authorizedKeys}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'StrictModes no',
      'PermitRootLogin yes',
      'LogLevel ERROR',
      // Today's scp speaks SFTP to the server.
      'Subsystem sftp internal-sftp',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(SSHD_BINARY, ['-D', '-e', '-f', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => (stderr = (stderr + d).slice(-4_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), SSHD_STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, SSHD_READY_TIMEOUT_MS, () => child.exitCode !== null);
  } catch (error) {
    await stop();
    throw new SshUnavailableError(`sshd did not start: ${(error as Error).message} ${stderr.trim()}`);
  }
  const user = os.userInfo().username;
  return {
    port,
    pid: child.pid!,
    version: sshVersion(),
    clientArgv: (remoteCommand) => [
      'ssh',
      '-tt',
      '-p',
      String(port),
      '-i',
      clientKey,
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      'UserKnownHostsFile=/dev/null',
      '-o',
      'BatchMode=yes',
      '-o',
      'LogLevel=ERROR',
      `${user}@127.0.0.1`,
      remoteCommand,
    ],
    scpArgv: (throughPort, args) => [
      'scp',
      '-q',
      '-P',
      String(throughPort),
      '-i',
      clientKey,
      '-o',
      'StrictHostKeyChecking=no',
      '-o',
      'UserKnownHostsFile=/dev/null',
      '-o',
      'BatchMode=yes',
      '-o',
      'LogLevel=ERROR',
      ...args,
    ],
    remote: (remotePath) => `${user}@127.0.0.1:${remotePath}`,
    stop,
  };
}

/** `ssh -V` prints its version on stderr. */
function sshVersion(): string {
  const result = spawnSync('ssh', ['-V'], { encoding: 'utf8' });
  return (result.stderr || result.stdout || 'unknown').trim();
}

async function waitForPort(port: number, timeoutMs: number, gaveUp: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gaveUp()) throw new Error('sshd exited');
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`port ${port} not open after ${timeoutMs} ms`);
}
