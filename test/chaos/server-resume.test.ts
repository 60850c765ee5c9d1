// Both exec-servers, driven through the fault proxy with bare JSON-RPC: a process streams numbered
// lines while the link is cut and stalled at random; resuming the session and re-reading from the
// last seq must recover every byte, in order, and the exit code.
import { describe, expect, it } from 'vitest';
import { type ServerImpl } from '../support/exec-servers';
import { PeerClosedError, PeerTimeoutError, RpcCallError, RpcPeer } from '../support/rpc-peer';
import { FaultSchedule, NO_CUT_PROVES_NOTHING } from './fault-schedule';
import { firstDifference, lineStream } from './line-stream';
import { chaosSeed, seededRandom } from '../support/seeded-random';
import { chaosRig } from './rig';

/** -32010: the server still sees the old connection attached; retry, as codex's client does. */
const ALREADY_ATTACHED = -32010;
const RESUME_DEADLINE_MS = 30_000;
const RESUME_RETRY_MS = 100;
const READ_WAIT_MS = 500;
const READ_TIMEOUT_MS = 4_000;
const CONNECT_TIMEOUT_MS = 5_000;

interface ReadResult {
  chunks: Array<{ seq: number; stream: string; chunk: string }>;
  exited: boolean;
  exitCode: number | null;
  closed: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A call on a link that may be dead: one that gets no answer in `timeoutMs` drops the connection, as
 * a real client would (a stall would never finish a close handshake), and fails like a closed link.
 */
async function callOrDrop<T>(rpc: RpcPeer, method: string, params: unknown, timeoutMs: number): Promise<T> {
  try {
    return await rpc.call<T>(method, params, timeoutMs);
  } catch (error) {
    if (error instanceof PeerTimeoutError) rpc.drop();
    throw error;
  }
}

/** The call failed because the link is gone (closed, or dropped for not answering). */
const linkLost = (error: unknown): boolean =>
  error instanceof PeerClosedError || error instanceof PeerTimeoutError;

/** Where the raw connections go: the proxy's URL, with the server's auth headers. */
interface Link {
  url: string;
  headers: Record<string, string>;
}

async function handshake(link: Link, resumeSessionId: string | null): Promise<{ rpc: RpcPeer; id: string }> {
  const rpc = await RpcPeer.connectWs(link.url, { headers: link.headers, timeoutMs: CONNECT_TIMEOUT_MS });
  try {
    const result = await callOrDrop<{ sessionId: string }>(
      rpc,
      'initialize',
      { clientName: 'chaos', resumeSessionId },
      READ_TIMEOUT_MS,
    );
    rpc.notify('initialized', {});
    return { rpc, id: result.sessionId };
  } catch (error) {
    rpc.drop();
    throw error;
  }
}

/** Reconnects and resumes until it works; only transport failures and -32010 are retried. */
async function resume(link: Link, sessionId: string): Promise<{ rpc: RpcPeer; attempts: number }> {
  const deadline = Date.now() + RESUME_DEADLINE_MS;
  for (let attempts = 1; ; attempts++) {
    try {
      const { rpc, id } = await handshake(link, sessionId);
      expect(id).toBe(sessionId);
      return { rpc, attempts };
    } catch (error) {
      const retryable = !(error instanceof RpcCallError) || error.code === ALREADY_ATTACHED;
      if (!retryable || Date.now() > deadline) throw error;
      await sleep(RESUME_RETRY_MS);
    }
  }
}

describe.each<ServerImpl>(['tether', 'codex'])('%s exec-server resume through a faulty link', (impl) => {
  const rig = chaosRig();

  it('recovers every byte with process/read after each cut or stall', async () => {
    const seed = chaosSeed();
    console.log(`[chaos] ${impl} server-resume seed=${seed} (replay with CHAOS_SEED=${seed})`);
    const { server, proxy } = await rig.serve(impl);
    const link = { url: proxy.url(), headers: server.authHeaders() };
    const stream = lineStream({ bursts: 60, linesPerBurst: 1_000, pauseMs: 60, exitCode: 7 });

    const first = await handshake(link, null);
    const sessionId = first.id;
    let rpc = first.rpc;
    await callOrDrop(
      rpc,
      'process/start',
      {
        processId: 'p1',
        argv: stream.argv,
        cwd: `file://${server.home}`,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        tty: false,
      },
      READ_TIMEOUT_MS,
    );

    const schedule = new FaultSchedule({ proxy, random: seededRandom(seed), maxFaults: 30 });
    const received: Buffer[] = [];
    let afterSeq = 0;
    let reconnects = 0;
    let result: ReadResult | undefined;
    try {
      for (;;) {
        try {
          result = await callOrDrop<ReadResult>(
            rpc,
            'process/read',
            { processId: 'p1', afterSeq, waitMs: READ_WAIT_MS },
            READ_TIMEOUT_MS + READ_WAIT_MS,
          );
        } catch (error) {
          if (!linkLost(error)) throw error;
          rpc.drop();
          const resumed = await resume(link, sessionId);
          rpc = resumed.rpc;
          reconnects += 1;
          continue;
        }
        for (const chunk of result.chunks) {
          expect(chunk.seq, `seed=${seed}`).toBeGreaterThan(afterSeq);
          received.push(Buffer.from(chunk.chunk, 'base64'));
          afterSeq = chunk.seq;
        }
        if (result.closed) break;
      }
    } finally {
      await schedule.stop();
      rpc.drop();
    }

    console.log(`[chaos] ${impl} seed=${seed} reconnects=${reconnects} faults: ${schedule.describe()}`);
    const actual = Buffer.concat(received);
    const expected = stream.expected();
    expect(firstDifference(actual, expected), `seed=${seed}`).toBe('identical');
    expect(result.exitCode).toBe(stream.exitCode);
    expect(schedule.connectionsCut(), `seed=${seed} ${NO_CUT_PROVES_NOTHING}`).toBeGreaterThan(0);
    expect(reconnects, `seed=${seed}`).toBeGreaterThan(0);
  });
});
