// The client facing hostile servers (test/support/hostile-server.ts): a data frame nested 20 000
// deep, a stream of garbage, and seeded fuzz rounds against a fake ws server, a fake stdio server
// and a mangling relay in front of a real Tether server, several environments at once. Whatever
// they send, the hostile environment ends connected, reconnecting or failed with a reason, every
// call settles, nothing is thrown uncaught, and the healthy environment next to it keeps serving.
// The bounded run takes a few seconds; `npm run fuzz` runs it long (TETHER_FUZZ_SECONDS).
import { spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { MAX_PROTOCOL_ERRORS } from '../../../electron/client/constants';
import { startServer, TETHER_BIN, type StartedServer } from '../../support/exec-servers';
import {
  dataFrame,
  fuzzSeed,
  hostileAct,
  hostileStdioCommand,
  initializeReply,
  mangling,
  nested,
  Rng,
  startHostileWsServer,
  startRewritingRelay,
  type HostileAct,
} from '../../support/hostile-server';
import { waitFor } from '../../support/wait';

/** How long the fuzz rounds run: a few seconds in `npm test`, as long as asked by `npm run fuzz`. */
const FUZZ_MS = Number(process.env.TETHER_FUZZ_SECONDS ?? '4') * 1000;
/** A round's calls get this long before the round closes its client. */
const ROUND_CALL_MS = 800;

const uncaught: unknown[] = [];
const onUncaught = (error: unknown): void => {
  uncaught.push(error);
};
const closers: Array<() => Promise<void> | void> = [];
let healthy: StartedServer;
let healthyClient: RemoteExecServerClient;

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  healthy = await startServer('tether', 'ws');
  healthyClient = new RemoteExecServerClient({ transport: healthy.transportSpec() });
  await healthyClient.connect();
});

afterAll(async () => {
  await healthyClient.close();
  await healthy.stop();
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
});

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  expect(uncaught).toEqual([]);
});

/** The healthy environment answers as before: no hostile neighbour touched it. */
async function expectHealthyUntouched(): Promise<void> {
  expect(healthyClient.state.kind).toBe('connected');
  const status = await healthyClient.callOnce('environment/status', undefined, { timeoutMs: 10_000 });
  expect(status).toBeTruthy();
}

function clientWithLog(transport: ConstructorParameters<typeof RemoteExecServerClient>[0]['transport']): {
  client: RemoteExecServerClient;
  log: string[];
} {
  const log: string[] = [];
  const client = new RemoteExecServerClient({ transport, log: (line) => log.push(line) });
  closers.push(() => client.close());
  return { client, log };
}

describe('a hostile ws server', () => {
  it('a data frame whose header nests 20 000 deep is a protocol error, not a crash', async () => {
    const server = await startHostileWsServer((request) => {
      if (request.method === 'initialize') return [initializeReply(request.id, true)];
      if (request.method !== 'fs/readBlock') {
        return [{ kind: 'text', text: JSON.stringify({ id: request.id, result: { status: 'ready' } }) }];
      }
      const header = `{"id":${JSON.stringify(request.id)},"result":{"chunk":{"payloadRef":[0,2]},"eof":true}}`;
      return [
        { kind: 'binary', bytes: dataFrame(nested(20_000)) },
        {
          kind: 'binary',
          bytes: dataFrame(`{"x":${nested(20_000, '{"payloadRef":[0,2]}')}}`, Buffer.from('hi')),
        },
        { kind: 'binary', bytes: dataFrame(header, Buffer.from('ok')) },
      ];
    });
    closers.push(() => server.close());
    const { client, log } = clientWithLog({ kind: 'ws', url: server.url });
    await client.connect();
    const result = await client.callOnce('fs/readBlock', { handleId: 'h', offset: 0, len: 2 });
    expect(Buffer.from(result.chunk as Uint8Array).toString()).toBe('ok');
    expect(log.filter((line) => /recursion limit exceeded/.test(line))).toHaveLength(2);
    expect(client.state.kind).toBe('connected');
    await expectHealthyUntouched();
  });

  it('a server that keeps sending garbage fails its environment with the reason; the other is untouched', async () => {
    const server = await startHostileWsServer((request) =>
      request.method === 'initialize'
        ? [initializeReply(request.id, false)]
        : Array.from({ length: MAX_PROTOCOL_ERRORS + 1 }, (): HostileAct => ({ kind: 'text', text: '{{' })),
    );
    closers.push(() => server.close());
    const { client } = clientWithLog({ kind: 'ws', url: server.url });
    await client.connect();
    await expect(client.callOnce('environment/status', undefined)).rejects.toMatchObject({
      code: 'protocol',
    });
    const state = await waitFor(
      () => (client.state.kind === 'failed' ? client.state : null),
      'the hostile environment to fail',
    );
    expect(state.code).toBe('protocol');
    expect(state.reason).toMatch(/malformed or unexpected messages; the last: .*not JSON/);
    // Failed, not reconnecting: a server that broke the protocol would break it again.
    expect(server.connections()).toBe(1);
    await expectHealthyUntouched();
  });
});

/** `tether run` (dist/) against `url`: its exit code and stderr. */
function tetherRun(url: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [TETHER_BIN, 'run', '--server', url, '--', '/bin/echo', 'hi'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

describe('tether run against a hostile server', () => {
  it.each([
    ['a data frame nested 20 000 deep, then garbage', true],
    ['garbage text', false],
  ])('%s: exits with a clear error, no crash', async (_name, binaryFrames) => {
    const server = await startHostileWsServer((request) => {
      if (request.method === 'initialize') return [initializeReply(request.id, binaryFrames)];
      const garbage = Array.from({ length: MAX_PROTOCOL_ERRORS }, (): HostileAct => ({
        kind: 'text',
        text: '{{',
      }));
      return binaryFrames
        ? [{ kind: 'binary', bytes: dataFrame(nested(20_000)) }, ...garbage]
        : [...garbage, ...garbage];
    });
    closers.push(() => server.close());
    const { code, stderr } = await tetherRun(server.url);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/malformed or unexpected messages/);
    // A clear message, not a crash's stack trace.
    expect(stderr).not.toMatch(/RangeError|Uncaught|\n\s+at /);
  });
});

/** Calls a hostile environment gets in a round, as the app makes them; each must settle. */
function roundCalls(client: RemoteExecServerClient): Array<Promise<unknown>> {
  const timeoutMs = ROUND_CALL_MS;
  return [
    client.callOnce('environment/status', undefined, { timeoutMs }),
    client.callOnce('fs/getMetadata', { path: 'file:///tmp' }, { timeoutMs }),
    client.callOnce('fs/readBlock', { handleId: 'h', offset: 0, len: 16 }, { timeoutMs }),
    client.startProcess({ argv: ['/bin/echo', 'hi'], cwd: '/tmp', tty: false, processId: 'fuzz-p' }),
  ];
}

async function settleRound(client: RemoteExecServerClient, calls: Array<Promise<unknown>>): Promise<void> {
  const all = Promise.allSettled(calls);
  await Promise.race([all, new Promise((resolve) => setTimeout(resolve, ROUND_CALL_MS * 2))]);
  const state = client.state;
  expect(['connecting', 'connected', 'reconnecting', 'failed', 'closed']).toContain(state.kind);
  if (state.kind === 'failed') expect(state.reason.length).toBeGreaterThan(0);
  await client.close();
  // Closing ends whatever was still waiting: no call hangs on a hostile server.
  await waitFor(
    () => Promise.race([all.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 5_000))]),
    'every call of the round to settle once the client closed',
  );
}

async function wsRound(rng: Rng): Promise<void> {
  const binaryFrames = rng.next() < 0.6;
  const server = await startHostileWsServer((request) => {
    const acts = Array.from({ length: rng.int(4) }, () =>
      hostileAct(rng, request.id, 'fuzz-p', binaryFrames),
    );
    if (request.method === 'initialize') return [initializeReply(request.id, binaryFrames), ...acts];
    if (rng.next() < 0.5) acts.push({ kind: 'text', text: JSON.stringify({ id: request.id, result: {} }) });
    return acts;
  });
  try {
    const client = new RemoteExecServerClient({ transport: { kind: 'ws', url: server.url } });
    await settleRound(client, roundCalls(client));
  } finally {
    await server.close();
  }
}

async function stdioRound(rng: Rng): Promise<void> {
  const lines = Array.from({ length: rng.int(6) }, () => {
    const act = hostileAct(rng, 0, 'fuzz-p', false);
    return act.kind === 'text' || act.kind === 'cut' ? act.text.replaceAll('\n', ' ') : '';
  });
  const command = hostileStdioCommand(lines, {
    ...(rng.next() < 0.3 ? { cut: '{"id":1,"result":{"chunk":"AAAA' } : {}),
    thenExit: rng.next() < 0.3,
  });
  const client = new RemoteExecServerClient({ transport: { kind: 'stdio', command } });
  await settleRound(client, roundCalls(client));
}

async function relayRound(rng: Rng, real: StartedServer): Promise<void> {
  const relay = await startRewritingRelay(
    real.url!,
    real.authHeaders(),
    mangling(rng, () => 'fuzz-p', true),
  );
  try {
    const client = new RemoteExecServerClient({ transport: { kind: 'ws', url: relay.url } });
    const calls = roundCalls(client);
    await settleRound(client, calls);
  } finally {
    await relay.close();
  }
}

describe('fuzzing the client (seeded)', () => {
  it('survives hostile ws, stdio and relayed servers; the healthy environment keeps serving', async () => {
    const seed = fuzzSeed();
    // Printed so a failing run replays: TETHER_FUZZ_SEED=<seed> npm run fuzz
    console.log(`hostile-fuzz seed ${seed} (replay with TETHER_FUZZ_SEED=${seed})`);
    const real = await startServer('tether', 'ws');
    closers.push(() => real.stop());
    const rng = new Rng(seed);
    const until = Date.now() + FUZZ_MS;
    let rounds = 0;
    const heapAtStart = process.memoryUsage().heapUsed;
    while (Date.now() < until || rounds < 3) {
      const kind = rounds % 3;
      try {
        if (kind === 0) await wsRound(rng);
        else if (kind === 1) await stdioRound(rng);
        else await relayRound(rng, real);
      } catch (error) {
        throw new Error(`round ${rounds} (seed ${seed}) failed: ${String(error)}`, { cause: error });
      }
      expect(uncaught, `round ${rounds} of seed ${seed}`).toEqual([]);
      await expectHealthyUntouched();
      rounds++;
    }
    // Memory stays bounded: rounds leave nothing behind (a generous bound; GC runs when it likes).
    expect(process.memoryUsage().heapUsed - heapAtStart).toBeLessThan(512 * 1_048_576);
  });
});
