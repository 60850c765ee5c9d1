// Both exec-servers, driven through the fault proxy with bare JSON-RPC: a process streams numbered
// lines while the link is cut and stalled at random; resuming the session and re-reading from the
// last seq must recover every byte, in order, and the exit code.
import { describe, expect, it } from 'vitest';
import { type ServerImpl } from '../support/exec-servers';
import { FaultSchedule, NO_CUT_PROVES_NOTHING } from './fault-schedule';
import { firstDifference, lineStream } from './line-stream';
import { RawRpc, RawRpcClosedError, RawRpcError } from './raw-rpc';
import { chaosSeed, seededRandom } from './seeded-random';
import { chaosRig } from './rig';

/** -32010: the server still sees the old connection attached; retry, as codex's client does. */
const ALREADY_ATTACHED = -32010;
const RESUME_DEADLINE_MS = 30_000;
const RESUME_RETRY_MS = 100;
const READ_WAIT_MS = 500;
const READ_TIMEOUT_MS = 4_000;

interface ReadResult {
  chunks: Array<{ seq: number; stream: string; chunk: string }>;
  exited: boolean;
  exitCode: number | null;
  closed: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where the raw connections go: the proxy's URL, with the server's auth headers. */
interface Link {
  url: string;
  headers: Record<string, string>;
}

async function handshake(link: Link, resumeSessionId: string | null): Promise<{ rpc: RawRpc; id: string }> {
  const rpc = await RawRpc.open(link.url, link.headers);
  try {
    const result = (await rpc.call(
      'initialize',
      { clientName: 'chaos', resumeSessionId },
      READ_TIMEOUT_MS,
    )) as {
      sessionId: string;
    };
    rpc.notify('initialized', {});
    return { rpc, id: result.sessionId };
  } catch (error) {
    rpc.close();
    throw error;
  }
}

/** Reconnects and resumes until it works; only transport failures and -32010 are retried. */
async function resume(link: Link, sessionId: string): Promise<{ rpc: RawRpc; attempts: number }> {
  const deadline = Date.now() + RESUME_DEADLINE_MS;
  for (let attempts = 1; ; attempts++) {
    try {
      const { rpc, id } = await handshake(link, sessionId);
      expect(id).toBe(sessionId);
      return { rpc, attempts };
    } catch (error) {
      const retryable = !(error instanceof RawRpcError) || (error as RawRpcError).code === ALREADY_ATTACHED;
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
    await rpc.call(
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
          result = (await rpc.call(
            'process/read',
            { processId: 'p1', afterSeq, waitMs: READ_WAIT_MS },
            READ_TIMEOUT_MS + READ_WAIT_MS,
          )) as ReadResult;
        } catch (error) {
          if (!(error instanceof RawRpcClosedError)) throw error;
          rpc.close();
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
      rpc.close();
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
