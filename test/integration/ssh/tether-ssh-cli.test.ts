// `tether run --ssh`, `tether ssh` and `tether cp --ssh` from a terminal: the same bootstrap, the
// process's output and exit code, the host's login shell under a real pty, a folder copied both
// ways, a key passphrase asked on the terminal, and `tether uninstall --ssh`.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TETHER_BIN } from '../../support/exec-servers';
import { pidAlive } from '../../support/pids';
import { tetherForward } from '../../support/tether-forward';
import { daemonPids, SshTestRig, type SshdHost } from '../../support/sshd';
import { waitFor } from '../client/helpers';

let rig: SshTestRig;
let host: SshdHost;
beforeAll(async () => {
  rig = new SshTestRig();
  host = await rig.startHost({ alias: 'cli-host' });
  rig.trustHost(host);
});
afterAll(async () => {
  await rig.close();
});

/** `tether ssh …` under a pty of ours; returns its output so far and its exit. */
function ptyTether(args: string[]): {
  output: () => string;
  write: (s: string) => void;
  exit: Promise<number>;
} {
  const term = pty.spawn(process.execPath, [TETHER_BIN, ...args], { cols: 100, rows: 30, env: process.env });
  let output = '';
  term.onData((data) => {
    output += data;
  });
  const exit = new Promise<number>((resolve) => term.onExit(({ exitCode }) => resolve(exitCode)));
  return { output: () => output, write: (s) => term.write(s), exit };
}

/** Runs `tether ARGS…` to its end; its exit code and stderr. */
async function tether(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [TETHER_BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stderr };
}

describe('tether ssh / tether run --ssh / tether cp --ssh', () => {
  it('copies a folder to the host and back, byte for byte', async () => {
    const local = mkdtempSync(path.join(os.tmpdir(), 'tether-cp-ssh-'));
    try {
      const tree = path.join(local, 'tree folder');
      mkdirSync(path.join(tree, 'sub'), { recursive: true });
      const payload = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
      writeFileSync(path.join(tree, 'sub', 'données.bin'), payload);
      writeFileSync(path.join(tree, 'empty'), '');
      const sshArgs = ['--ssh', host.alias, '-F', rig.configFile, '-q', '-r'];
      const up = await tether(['cp', ...sshArgs, tree, 'remote:uploaded']);
      // The first connect installs the server (said on stderr); no copy failed.
      expect(up.stderr).not.toContain('tether cp:');
      expect(up.code).toBe(0);
      // It landed in the host's home (the server's working folder), not locally.
      expect(readFileSync(path.join(host.home, 'uploaded', 'sub', 'données.bin')).equals(payload)).toBe(true);
      expect(readFileSync(path.join(host.home, 'uploaded', 'empty'))).toHaveLength(0);
      const back = path.join(local, 'back');
      const down = await tether(['cp', ...sshArgs, 'remote:uploaded', back]);
      expect(down.code).toBe(0);
      expect(readFileSync(path.join(back, 'sub', 'données.bin')).equals(payload)).toBe(true);
      const missing = await tether(['cp', ...sshArgs, 'remote:no-such-thing', path.join(local, 'x')]);
      expect(missing.code).toBe(1);
    } finally {
      rmSync(local, { recursive: true, force: true });
    }
  });

  it('runs one command over SSH with its output and exit code', async () => {
    const child = spawn(
      process.execPath,
      [
        TETHER_BIN,
        'run',
        '--ssh',
        host.alias,
        '-F',
        rig.configFile,
        '--',
        'sh',
        '-c',
        'echo out; echo err >&2; exit 3',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(stderr).toContain('err');
    expect(stdout).toBe('out\n');
    expect(code).toBe(3);
  });

  it('forwards a port over SSH through the daemon, as ssh -L would', async () => {
    // The rig's host is this machine: a port on its loopback is one on ours.
    const echo = net.createServer({ allowHalfOpen: true }, (socket) => {
      socket.on('error', () => undefined);
      socket.pipe(socket);
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const target = (echo.address() as net.AddressInfo).port;
    const forwarding = await tetherForward(
      ['--ssh', host.alias, '-F', rig.configFile, `0:localhost:${target}`],
      60_000,
    );
    const port = Number(forwarding.address.split(':')[1]);
    const payload = Buffer.from(Array.from({ length: 1_000_000 }, (_, i) => (i * 13) % 256));
    const echoed = await new Promise<Buffer>((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port, allowHalfOpen: true });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks)));
      socket.on('error', reject);
      socket.end(payload);
    });
    expect(echoed.equals(payload)).toBe(true);
    expect(await forwarding.stop()).toBe(0);
    echo.close();
  });

  it('opens the login shell of the host under a pty', async () => {
    const session = ptyTether(['ssh', host.alias, '-F', rig.configFile]);
    // The shell is up once it answers; then it computes, and exits with our status.
    await waitFor(
      'the shell to answer',
      () => {
        session.write('echo READY\r');
        return session.output().includes('READY');
      },
      45_000,
    );
    session.write('echo $((6*7)); exit 5\r');
    expect(await session.exit).toBe(5);
    expect(session.output()).toContain('42');
  });

  it('asks for a key passphrase on the terminal, without echoing it', async () => {
    const locked = await rig.startHost({ alias: 'cli-passphrase', authorizedKey: rig.passphraseKey });
    rig.trustHost(locked);
    const session = ptyTether([
      'run',
      '--ssh',
      locked.alias,
      '-F',
      rig.configFile,
      '--',
      'echo',
      'signed-in',
    ]);
    await waitFor('the passphrase question', () => session.output().includes('Enter passphrase'), 45_000);
    session.write(`${SshTestRig.PASSPHRASE}\r`);
    expect(await session.exit).toBe(0);
    expect(session.output()).toContain('signed-in');
    expect(session.output()).not.toContain(SshTestRig.PASSPHRASE);
  });

  it('tether uninstall --ssh stops the daemon and removes what Tether installed, saying so', async () => {
    // Earlier tests installed the server and left its daemon running.
    const [daemon] = daemonPids(host);
    expect(daemon).toBeDefined();
    const child = spawn(
      process.execPath,
      [TETHER_BIN, 'uninstall', '--ssh', host.alias, '-F', rig.configFile],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toContain(`stopped daemon ${daemon}\n`);
    expect(stdout).toContain(`removed ${path.join(host.home, '.tether')}\n`);
    expect(existsSync(path.join(host.home, '.tether'))).toBe(false);
    await waitFor('the daemon to be gone', () => !pidAlive(daemon!));
  });
});
