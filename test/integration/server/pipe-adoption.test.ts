// Pipe adoption with real processes: a bridge whose stdin and stdout are pipes (as podman exec,
// docker exec and sshd give it) has the daemon serve those pipes itself, byte-exact; the link and
// the bridge end together, whichever side ends first; a bridge the daemon cannot verify (another pid
// namespace) is declined and relays as before; and a forged request on the socket is declined.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ADOPT_REQUEST_PREFIX, ADOPTED_LOG_LINE } from '../../../electron/server/daemon/pipe-adoption';
import { pidAlive } from '../../support/pids';
import { openFds } from '../../support/proc-fds';
import type { RpcPeer } from '../../support/rpc-peer';
import { waitFor } from '../../support/wait';
import { daemonRigsEachTest, type DaemonRig } from './daemon-rig';

const newRig = daemonRigsEachTest();

async function seqOutput(client: RpcPeer, processId: string, count: number): Promise<void> {
  await client.call('process/start', {
    processId,
    argv: ['/usr/bin/seq', '1', String(count)],
    cwd: 'file:///tmp',
    env: {},
    tty: false,
  });
  const expected = Array.from({ length: count }, (_, i) => `${i + 1}\n`).join('');
  await waitFor(() => client.outputOf(processId) === expected, `${processId} output`, 30_000);
}

/** A raw socket to the rig's daemon (started by a first bridge), and the first line it answers. */
async function askRaw(rig: DaemonRig, line: string): Promise<string> {
  const socket = net.connect(rig.file('sock'));
  let reply = '';
  socket.setEncoding('utf8');
  socket.on('data', (data: string) => (reply += data));
  socket.write(line);
  await new Promise((resolve) => socket.once('close', resolve));
  return reply.trim();
}

describe('a bridge on pipes', () => {
  it('has the daemon serve its pipes itself, byte-exact, while it only waits', async () => {
    const rig = newRig();
    const bridge = rig.bridgeOverPipes();
    await bridge.client.handshake();
    const daemon = await rig.daemonPid();
    await seqOutput(bridge.client, 'count', 100_000);
    // The daemon holds both pipes open itself; the bridge said nothing of relaying.
    const held = openFds(daemon);
    expect(held).toContain(bridge.pipes.stdin);
    expect(held).toContain(bridge.pipes.stdout);
    await bridge.client.close();
    const finished = await bridge.finished;
    expect(finished.code).toBe(0);
    expect(finished.stderr).toBe(`tether bridge: ${ADOPTED_LOG_LINE}\n`);
    await waitFor(() => !openFds(daemon).includes(bridge.pipes.stdout), 'daemon let go of the pipes');
  });

  it('ends its link when it is killed, and the next bridge resumes the session', async () => {
    const rig = newRig();
    const first = rig.bridgeOverPipes();
    const sessionId = (await first.client.handshake()).sessionId;
    const daemon = await rig.daemonPid();
    await seqOutput(first.client, 'before', 1000);
    expect(openFds(daemon)).toContain(first.pipes.stdout);
    first.child.kill('SIGKILL');
    await first.finished;
    // The daemon saw its lifeline close: it let go of the pipes, so the client reads their end.
    await first.client.waitForClose();
    await waitFor(() => !openFds(daemon).includes(first.pipes.stdout), 'daemon let go of the pipes');
    const second = rig.bridgeOverPipes(['--no-start']);
    expect((await second.client.handshake(sessionId)).sessionId).toBe(sessionId);
    await seqOutput(second.client, 'after', 1000);
    expect(pidAlive(daemon)).toBe(true);
  });

  it('is declined when the daemon cannot find its pipes (another pid namespace) and relays instead', async () => {
    const rig = newRig();
    const starter = rig.bridge();
    await starter.client.handshake();
    await rig.daemonPid();
    // The same bridge in a pid namespace of its own: the pid it names means another process to the
    // daemon, so the daemon must decline rather than open that process's descriptors.
    const bridge = rig.bridgeOverPipes(
      ['--no-start'],
      // sh as the namespace's first process, so the bridge is its pid 2 (kthreadd's, out here).
      ['unshare', '--pid', '--fork', '--kill-child', '--mount-proc', '/bin/sh', '-c', '"$@"; exit $?', 'sh'],
    );
    await bridge.client.handshake();
    await seqOutput(bridge.client, 'relayed', 20_000);
    await bridge.client.close();
    const finished = await bridge.finished;
    expect(finished.stderr).toMatch(
      /relaying, the daemon did not adopt this session's pipes: cannot open fd 0 of pid 2/,
    );
    expect(finished.code).toBe(0);
  });

  it('declines a forged or malformed request on its socket, and serves links after it', async () => {
    const rig = newRig();
    const first = rig.bridge();
    await first.client.handshake();
    await rig.daemonPid();
    const identity = { dev: 1, ino: 1 };
    // Our own pid, but pipes we do not have: nothing is opened.
    const forged = await askRaw(
      rig,
      `${ADOPT_REQUEST_PREFIX}${JSON.stringify({ pid: process.pid, stdin: identity, stdout: identity })}\n`,
    );
    expect(forged).toMatch(/^declined /);
    expect(await askRaw(rig, `${ADOPT_REQUEST_PREFIX}{"pid":"1"}\n`)).toBe('declined malformed request');
    const second = rig.bridge(['--no-start']);
    await second.client.handshake();
    await seqOutput(second.client, 'still', 100);
  });
});
