// The SSH daemon and its bridge, as real processes on real unix sockets (no sshd: the bridge is
// what ssh would run): the daemon outlives a killed bridge, concurrent bridges start one daemon,
// --no-start reports a missing daemon with exit 90, stale files are replaced, idle exit waits for
// held sessions, and a run directory that is not private refuses to serve.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BRIDGE_EXIT_NO_DAEMON } from '../../../shared/remote-bundle';
import { pidAlive } from '../../support/pids';
import { daemonRigsEachTest } from './daemon-rig';
import { waitFor } from '../../support/wait';

const newRig = daemonRigsEachTest();

function chunksAfter(result: Record<string, unknown>): Buffer {
  const chunks = result.chunks as { chunk: string }[];
  return Buffer.concat(chunks.map((c) => Buffer.from(c.chunk, 'base64')));
}

describe('the daemon behind the bridge', () => {
  it('outlives a killed bridge and ignores SIGHUP; the next bridge resumes the session byte-exact', async () => {
    const rig = newRig();
    const flag = path.join(rig.scratchDir, 'go');
    const first = rig.bridge();
    const sessionId = (await first.client.handshake()).sessionId;
    const daemon = await rig.daemonPid();
    await first.client.call('process/start', {
      processId: 'counter',
      // Prints its first line at once and the rest only once the first bridge is gone.
      argv: ['/bin/sh', '-c', `echo start; while [ ! -e ${flag} ]; do sleep 0.02; done; seq 1 20000`],
      cwd: 'file:///tmp',
      env: {},
      tty: false,
    });
    await waitFor(() => first.client.outputOf('counter') === 'start\n', 'first line');
    const seenSeqs = first.client
      .notifications()
      .filter((n) => n.method === 'process/output')
      .map((n) => n.params.seq as number);
    first.child.kill('SIGKILL');
    await first.finished;
    process.kill(daemon, 'SIGHUP');
    writeFileSync(flag, '');

    const second = rig.bridge(['--no-start']);
    expect((await second.client.handshake(sessionId)).sessionId).toBe(sessionId);
    let rest = Buffer.alloc(0);
    let afterSeq = Math.max(...seenSeqs);
    for (;;) {
      const read = await second.client.call('process/read', { processId: 'counter', afterSeq, waitMs: 1000 });
      rest = Buffer.concat([rest, chunksAfter(read)]);
      afterSeq = (read.nextSeq as number) - 1;
      if (read.closed) break;
    }
    const expected = `start\n${Array.from({ length: 20000 }, (_, i) => `${i + 1}\n`).join('')}`;
    expect(first.client.outputOf('counter') + rest.toString()).toBe(expected);
    expect(rig.pidfilePid()).toBe(daemon);
    expect(pidAlive(daemon)).toBe(true);
  });

  it('lets a resume take the session from a bridge that lingers after its client vanished', async () => {
    const rig = newRig();
    const first = rig.bridge();
    const sessionId = (await first.client.handshake()).sessionId;
    // A stopped bridge keeps its socket open and answers nothing, like one whose SSH link died
    // before sshd noticed.
    first.child.kill('SIGSTOP');
    const second = rig.bridge(['--no-start']);
    expect((await second.client.handshake(sessionId)).sessionId).toBe(sessionId);
    first.child.kill('SIGKILL');
  });

  it('reaps a closed process while its client stays attached through a bridge', async () => {
    const rig = newRig();
    mkdirSync(rig.runDir, { mode: 0o700 });
    const daemon = rig.spawn([
      'daemon',
      '--listen',
      `unix:${rig.file('sock')}`,
      '--exited-process-ttl-ms',
      '300',
    ]);
    let said = '';
    daemon.stderr?.on('data', (d: Buffer) => (said += d.toString()));
    await waitFor(() => existsSync(rig.file('sock')), 'the daemon socket').catch((e: unknown) => {
      throw new Error(`${String(e)}: ${said}`);
    });
    const bridge = rig.bridge(['--no-start']);
    await bridge.client.handshake();
    await bridge.client.call('process/start', {
      processId: 'done',
      argv: ['/bin/true'],
      cwd: 'file:///tmp',
      env: {},
      tty: false,
    });
    // Attached and talking (as the client's keepalive pings do), the closed process goes after its TTL.
    await waitFor(async () => {
      const read = await bridge.client.request('process/read', { processId: 'done' });
      return read.error?.message.startsWith('unknown process id') === true;
    }, 'the closed process to be reaped');
  });

  it('moves an oversized log aside before it starts a daemon', async () => {
    const rig = newRig();
    mkdirSync(rig.runDir, { mode: 0o700 });
    writeFileSync(rig.file('log'), 'x'.repeat(1024 * 1024 + 1));
    const bridge = rig.bridge();
    await bridge.client.handshake();
    expect(readFileSync(`${rig.file('log')}.old`, 'utf8')).toHaveLength(1024 * 1024 + 1);
    expect(readFileSync(rig.file('log'), 'utf8')).toBe(`unix:${rig.file('sock')}\n`);
  });

  it('ends its processes and removes its socket and pidfile on SIGTERM', async () => {
    const rig = newRig();
    const bridge = rig.bridge();
    await bridge.client.handshake();
    const { pid } = await bridge.client.call('process/start', {
      processId: 'sleeper',
      argv: ['sleep', '300'],
      cwd: 'file:///tmp',
      env: {},
      tty: false,
    });
    const daemon = await rig.daemonPid();
    process.kill(daemon, 'SIGTERM');
    expect((await bridge.finished).code).toBe(0);
    await waitFor(() => !pidAlive(daemon) && !pidAlive(pid as number), 'daemon and its process gone');
    expect(existsSync(rig.file('sock'))).toBe(false);
    expect(existsSync(rig.file('pid'))).toBe(false);
  });

  it('quotes the log when the daemon it started dies before listening', async () => {
    const rig = newRig();
    rmSync(path.join(rig.bundleDir, 'node-pty'), { recursive: true });
    const result = await rig.run(['bridge']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the daemon exited before it listened \(.*\.log\):\n/);
    expect(result.stderr).toMatch(/Cannot find module '.*\/node-pty'/);
  });

  it('takes over the start-up lock of a bridge that died holding it', async () => {
    const rig = newRig();
    const gone = spawnSync('true').pid!;
    mkdirSync(rig.runDir, { mode: 0o700 });
    writeFileSync(rig.file('lock'), `${gone}\n`);
    const bridge = rig.bridge();
    await bridge.client.handshake();
    expect(rig.daemonPids()).toEqual([await rig.daemonPid()]);
    expect(existsSync(rig.file('lock'))).toBe(false);
  });

  it('starts one daemon for two bridges started at once', async () => {
    const rig = newRig();
    const bridges = [rig.bridge(), rig.bridge()];
    const sessions = await Promise.all(bridges.map(async (b) => (await b.client.handshake()).sessionId));
    expect(new Set(sessions).size).toBe(2);
    expect(rig.daemonPids()).toEqual([await rig.daemonPid()]);
    // A second daemon would have said so in the shared log before giving up.
    const log = readFileSync(rig.file('log'), 'utf8');
    expect(log.match(/^unix:/gm)).toHaveLength(1);
    expect(log).not.toMatch(/already running/);
  });

  it('with --no-start exits 90 when no daemon runs, even over the stale files of a killed one', async () => {
    const rig = newRig();
    const none = await rig.run(['bridge', '--no-start']);
    expect(none.code).toBe(BRIDGE_EXIT_NO_DAEMON);
    expect(none.stderr).toBe('tether bridge: no Tether daemon is running on this host\n');

    const first = rig.bridge();
    await first.client.handshake();
    const killed = await rig.daemonPid();
    process.kill(killed, 'SIGKILL');
    await first.finished;
    await waitFor(() => !pidAlive(killed), 'daemon killed');
    expect(existsSync(rig.file('sock'))).toBe(true);
    expect(rig.pidfilePid()).toBe(killed);

    const stale = await rig.run(['bridge', '--no-start']);
    expect(stale.code).toBe(BRIDGE_EXIT_NO_DAEMON);
    expect(rig.pidfilePid()).toBe(killed);

    const fresh = rig.bridge();
    await fresh.client.handshake();
    const replacement = await rig.daemonPid();
    expect(replacement).not.toBe(killed);
    expect(rig.daemonPids()).toEqual([replacement]);
  });

  it('exits when idle, removing its socket and pidfile, but not while a session is held', async () => {
    const holder = newRig();
    const held = holder.bridge(['--idle-exit-ms', '300', '--session-ttl-ms', '10000']);
    const sessionId = (await held.client.handshake()).sessionId;
    const holderDaemon = await holder.daemonPid();
    held.client.drop();
    expect((await held.finished).code).toBe(0);

    // A control daemon with the same idle time and no session: once it is gone, the first one's
    // idle timer would have fired too, had it not counted the held session.
    const control = newRig();
    const idle = control.bridge(['--idle-exit-ms', '300']);
    const controlDaemon = await control.daemonPid();
    idle.client.drop();
    await idle.finished;
    await waitFor(() => !pidAlive(controlDaemon), 'idle control daemon exited');
    expect(existsSync(control.file('sock'))).toBe(false);
    expect(existsSync(control.file('pid'))).toBe(false);

    expect(pidAlive(holderDaemon)).toBe(true);
    const resumed = holder.bridge(['--no-start']);
    expect((await resumed.client.handshake(sessionId)).sessionId).toBe(sessionId);
    resumed.client.drop();
    await resumed.finished;
    // Now the session expires (10 s after the drop) and the daemon leaves 300 ms later.
    await waitFor(() => !pidAlive(holderDaemon), 'daemon exited after its session expired', 60_000);
    expect(existsSync(holder.file('sock'))).toBe(false);
    expect(existsSync(holder.file('pid'))).toBe(false);
  }, 120_000);
});

describe('the run directory', () => {
  it('is refused when group or others may enter it', async () => {
    const rig = newRig();
    mkdirSync(rig.runDir, { mode: 0o755 });
    const result = await rig.run(['bridge']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /refusing .*\/tether: .* has mode 755; it must be accessible only by its owner/,
    );
    expect(rig.daemonPids()).toEqual([]);
  });

  it.runIf(process.getuid?.() === 0)('is refused when another user owns it', async () => {
    const rig = newRig();
    mkdirSync(rig.runDir, { mode: 0o700 });
    chownSync(rig.runDir, 65534, 65534);
    const result = await rig.run(['bridge']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is owned by uid 65534, not by us \(uid 0\)/);
    expect(rig.daemonPids()).toEqual([]);
  });

  it('is refused for `exec-server --listen unix:` too, and an overlong socket path fails clearly', async () => {
    const rig = newRig();
    const open = path.join(rig.scratchDir, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const refused = await rig.run(['exec-server', '--listen', `unix:${open}/s.sock`]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refusing .*\/open: .* has mode 777/);
    const relative = await rig.run(['bridge'], rig.env({ TETHER_RUN_DIR: 'tether' }));
    expect(relative.code).toBe(1);
    expect(relative.stderr).toMatch(/TETHER_RUN_DIR must be an absolute path, got `tether`/);
    const long = await rig.run(['daemon', '--listen', `unix:${rig.runDir}/${'x'.repeat(120)}.sock`]);
    expect(long.code).toBe(1);
    expect(long.stderr).toMatch(/unix socket path .* is \d+ bytes; the limit is 107/);
  });
});
