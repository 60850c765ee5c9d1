// Typing on a slow link: keystrokes sent while a process/write is in flight go out together in the
// next one (not one round trip each), and every key reaches the process exactly once and in order,
// a cut in the middle included (the resent write carries its writeId, which the server dedups).
// Real parts: the AppService, a Tether ws server, the fault proxy for latency and the cut, and a
// WebSocket tap that counts the process/write calls on the wire.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { FaultProxy } from '../../support/fault-proxy';
import { WsTap } from '../../support/ws-tap';
import { createHarness, eventsOf, outputText, waitFor, type Harness } from './app-harness';

/** One way; a round trip is twice this. */
const LATENCY_MS = 80;
const KEYS = 'the quick brown fox jumps over the lazy dog 0123456789';
/** Keys are typed this far apart: several land inside each round trip. */
const KEY_INTERVAL_MS = 10;

let server: StartedServer;
let tap: WsTap;
let proxy: FaultProxy;
let h: Harness;
let envId: string;
let jsonWrites = 0;

beforeAll(async () => {
  server = await startServer('tether', 'ws');
  tap = await WsTap.start(server.url!, {
    onClientMessage: (message) => {
      if (message.method === 'process/write') jsonWrites += 1;
    },
  });
  proxy = await FaultProxy.forUrl(tap.url);
  h = await createHarness({ autoConnect: false });
  envId = (
    await h.invoke('environments.add', {
      name: 'Slow link',
      color: '#3366aa',
      settings: { kind: 'ws', url: proxy.url('ws') },
      token: server.token,
    })
  ).id;
  await waitFor(
    async () =>
      (await h.invoke('environments.list', {})).find((e) => e.id === envId)?.link.kind === 'connected',
    'connected',
  );
});
afterAll(async () => {
  await h?.close();
  await proxy?.close();
  await tap?.close();
  await server?.stop();
});

/** process/write calls the client sent upstream so far (JSON text, or a data frame's header). */
function writesOnTheWire(): number {
  const framed = tap.messages.filter(
    (m) => m.direction === 'up' && (m.dataFrameHeader ?? '').includes('"process/write"'),
  ).length;
  return jsonWrites + framed;
}

describe('typing during a slow round trip', () => {
  it('batches what was typed into the next write, each key once and in order, through a cut', async () => {
    const cat = await h.invoke('processes.start', { envId, argv: ['cat'], tty: false });
    proxy.setLatency(LATENCY_MS);
    const before = writesOnTheWire();
    const sent: Array<Promise<unknown>> = [];
    for (const [i, key] of [...KEYS].entries()) {
      // As a terminal does: each key is its own processes.write, none awaits the one before.
      sent.push(
        h.invoke('processes.write', { envId, processId: cat.processId, data: new TextEncoder().encode(key) }),
      );
      if (i === Math.floor(KEYS.length / 2)) proxy.cutAll();
      await new Promise((resolve) => setTimeout(resolve, KEY_INTERVAL_MS));
    }
    await Promise.all(sent);
    await waitFor(() => outputText(eventsOf(h, cat.processId)).length >= KEYS.length, 'the echo', 20_000);
    proxy.setLatency(0);
    // Exactly once and in order: nothing lost, nothing doubled by the resend after the cut.
    expect(outputText(eventsOf(h, cat.processId))).toBe(KEYS);
    // One write per key would be KEYS.length calls; with one in flight per round trip they batch.
    const writes = writesOnTheWire() - before;
    expect(writes).toBeGreaterThan(0);
    expect(writes).toBeLessThan(KEYS.length / 3);
  });
});
