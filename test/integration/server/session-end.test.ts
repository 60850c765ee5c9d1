// `session/end` (capability `tetherSessionEnd`) against the real server: the session is gone at
// once for listing and resuming, what it still ran is killed, what it finished is forgotten, and
// the connection that ended it serves no more requests. Through the client, `close({endSession})`
// ends it, and a plain close leaves it for a resume as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { pidAlive } from '../../support/pids';
import { RpcPeer, shellStartParams } from '../../support/rpc-peer';
import { waitFor } from '../../support/wait';

interface Listed {
  sessions: Array<{ sessionId: string; clientName: string; processes: Array<{ processId: string }> }>;
}

const peers: RpcPeer[] = [];
let server: StartedServer;

beforeAll(async () => {
  server = await startServer('tether', 'ws');
});

afterAll(async () => {
  for (const peer of peers) peer.drop();
  await server.stop();
});

async function peer(clientName: string): Promise<{ peer: RpcPeer; sessionId: string }> {
  const connected = await RpcPeer.connectWs(server.url!, { headers: server.authHeaders() });
  peers.push(connected);
  const { sessionId } = await connected.call<{ sessionId: string }>('initialize', { clientName });
  connected.notify('initialized', {});
  return { peer: connected, sessionId };
}

const listedNames = async (by: RpcPeer): Promise<string[]> =>
  (await by.call<Listed>('session/list', {})).sessions.map((s) => s.clientName).sort();

describe('session/end', () => {
  it('forgets the session at once, kills what it runs, and serves no more on that connection', async () => {
    const { peer: oneShot, sessionId } = await peer('one-shot');
    const info = await oneShot.call<{ capabilities: Record<string, unknown> }>('environment/info');
    expect(info.capabilities.tetherSessionEnd).toBe(true);
    const running = await oneShot.call<{ pid: number }>(
      'process/start',
      shellStartParams('sleeper', 'exec sleep 60'),
    );
    await oneShot.call('process/start', shellStartParams('done', 'echo finished'));
    await waitFor(async () => {
      const read = await oneShot.call<{ closed: boolean }>('process/read', {
        processId: 'done',
        afterSeq: 0,
      });
      return read.closed;
    }, 'the finished process to close');
    const { peer: watcher } = await peer('watcher');
    expect(await listedNames(watcher)).toEqual(['one-shot', 'watcher']);

    expect(await oneShot.call('session/end', {})).toEqual({});
    expect(await listedNames(watcher)).toEqual(['watcher']);
    await waitFor(() => !pidAlive(running.pid), 'the running process to be killed', 10_000);
    const after = await oneShot.request('process/read', { processId: 'done', afterSeq: 0 });
    expect(after.error?.message).toBe(`session ${sessionId} has ended`);

    oneShot.drop();
    const resume = await RpcPeer.connectWs(server.url!, { headers: server.authHeaders() });
    peers.push(resume);
    const resumed = await resume.request('initialize', {
      clientName: 'one-shot',
      resumeSessionId: sessionId,
    });
    expect(resumed.error?.message).toBe(`unknown session id ${sessionId}`);
  });

  it('is what close({endSession}) sends, while a plain close keeps the session for a resume', async () => {
    const { peer: watcher } = await peer('observer');
    const client = (name: string) =>
      new RemoteExecServerClient({
        transport: server.transportSpec(server.url!),
        clientName: name,
      });
    const ending = client('ending');
    const keeping = client('keeping');
    await Promise.all([ending.connect(), keeping.connect()]);
    expect(await listedNames(watcher)).toEqual(['ending', 'keeping', 'observer', 'watcher']);
    await Promise.all([ending.close({ endSession: true }), keeping.close()]);
    expect(await listedNames(watcher)).toEqual(['keeping', 'observer', 'watcher']);
  });
});
