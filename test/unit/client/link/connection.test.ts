// ExecServerConnection against a scripted WebSocket peer on 127.0.0.1: malformed input is reported
// and never thrown, early notifications wait for their route, results are validated, server
// requests are refused politely, and a peer that goes silent is declared dead; a silent link
// without pings is reported stalled, and given up at its stall limit when it has one.
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ClientError } from '../../../../electron/client/client-error';
import { ExecServerConnection, type WireProcessEvent } from '../../../../electron/client/link/connection';
import { transportOpener } from '../../../../electron/client/transports/transport';
import { STALLED_AFTER_MS } from '../../../../electron/client/constants';
import { waitFor } from '../../../support/wait';

interface Peer {
  url: string;
  socket: Promise<WebSocket>;
  received: unknown[];
  close(): Promise<void>;
}

async function scriptedPeer(): Promise<Peer> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const received: unknown[] = [];
  const socket = new Promise<WebSocket>((resolve) =>
    server.once('connection', (ws) => {
      ws.on('message', (data) => received.push(JSON.parse(String(data))));
      resolve(ws);
    }),
  );
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    socket,
    received,
    close: async () => {
      for (const client of server.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('ExecServerConnection', () => {
  it('reports malformed input, buffers early notifications and validates results', async () => {
    const peer = await scriptedPeer();
    cleanups.push(() => peer.close());
    const problems: string[] = [];
    const closes: ClientError[] = [];
    const connection = await ExecServerConnection.open(
      transportOpener({ kind: 'ws', url: peer.url }),
      { onClose: (e) => closes.push(e), onProtocolError: (m) => problems.push(m) },
      5_000,
    );
    cleanups.push(() => connection.close());
    const ws = await peer.socket;

    ws.send('this is not json');
    ws.send('[1,2]');
    ws.send(JSON.stringify({ id: 999, result: {} }));
    ws.send(
      JSON.stringify({ method: 'process/output', params: { processId: 'p', stream: 'stdout', chunk: '' } }),
    );
    ws.send(
      JSON.stringify({
        method: 'process/output',
        params: { processId: 'p', seq: 1, stream: 'stdout', chunk: 'aGk=' },
      }),
    );
    ws.send(JSON.stringify({ id: 'srv-1', method: 'network/policyRequest', params: {} }));
    await waitFor(
      () => problems.length >= 4 && peer.received.length >= 1,
      'the problems and the first message',
      15_000,
    );
    expect(problems[0]).toMatch(/not JSON: this is not json/);
    expect(problems[1]).toMatch(/not a JSON-RPC object/);
    expect(problems[2]).toMatch(/an id we never used/);
    expect(problems[3]).toMatch(/malformed process\/output: missing field `seq`/);
    // The answer to the last frame proves every frame was handled: the valid output is no problem.
    expect(problems).toHaveLength(4);
    expect(peer.received).toEqual([
      expect.objectContaining({ id: 'srv-1', error: expect.objectContaining({ code: -32601 }) }),
    ]);

    const events: WireProcessEvent[] = [];
    connection.route('p', (e) => events.push(e));
    expect(events).toEqual([{ kind: 'output', seq: 1, stream: 'stdout', chunk: 'aGk=' }]);

    ws.on('message', (data) => {
      const request = JSON.parse(String(data)) as { id: number; method: string };
      if (request.method === 'environment/status')
        ws.send(JSON.stringify({ id: request.id, result: { nope: 1 } }));
      if (request.method === 'process/terminate') {
        ws.send(JSON.stringify({ id: request.id, error: { code: -32600, message: 'unknown process id x' } }));
      }
    });
    await expect(connection.call('environment/status', undefined)).rejects.toMatchObject({
      code: 'protocol',
      message: expect.stringMatching(/missing field `status`/),
    });
    await expect(connection.call('process/terminate', { processId: 'x' })).rejects.toMatchObject({
      code: 'rpc',
      rpc: { code: -32600, message: 'unknown process id x' },
    });
    expect(closes).toEqual([]);
  });

  it('declares a peer that stops reading dead, rejecting pending calls once', async () => {
    const peer = await scriptedPeer();
    cleanups.push(() => peer.close());
    const closes: ClientError[] = [];
    const connection = await ExecServerConnection.open(
      transportOpener({ kind: 'ws', url: peer.url }),
      { onClose: (e) => closes.push(e) },
      5_000,
    );
    cleanups.push(() => connection.close());
    const ws = await peer.socket;
    // The peer's socket stops reading: no answers, no pongs, yet TCP stays up.
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const call = connection.call('environment/status', undefined, { timeoutMs: 60_000 });
    await expect(call).rejects.toMatchObject({
      code: 'disconnected',
      message: expect.stringMatching(/considered dead/),
    });
    expect(connection.closed).toBe(true);
    expect(closes).toHaveLength(1);
  });

  it('reports a silent stdio link stalled, and gives it up at its stall limit only if it has one', async () => {
    // Reads everything, answers nothing: a link that froze with its peer still there.
    const silent = transportOpener({ kind: 'stdio', command: ['/bin/sh', '-c', 'exec cat > /dev/null'] });
    const open = async (stallLimitMs: number | null) => {
      const stalls: boolean[] = [];
      const closes: ClientError[] = [];
      const connection = await ExecServerConnection.open(
        silent,
        { onClose: (e) => closes.push(e), onStallChange: (stalled) => stalls.push(stalled) },
        5_000,
        false,
        stallLimitMs,
      );
      cleanups.push(() => connection.close());
      connection.call('environment/status', undefined, { timeoutMs: 60_000 }).catch(() => undefined);
      return { connection, stalls, closes };
    };
    const limited = await open(STALLED_AFTER_MS + 1_500);
    const unlimited = await open(null);

    await waitFor(() => limited.stalls.length > 0, 'the stall to be reported', STALLED_AFTER_MS + 5_000);
    expect(limited.stalls).toEqual([true]);
    expect(limited.connection.giveUpAt).not.toBeNull();
    await waitFor(() => limited.closes.length > 0, 'the stalled link to be given up', 10_000);
    expect(limited.closes[0]!.message).toMatch(
      /No reply from stdio: .* for \d+ s; the stalled link is given up/,
    );

    expect(unlimited.connection.closed, 'a link without a stall limit stays').toBe(false);
    expect(unlimited.connection.stalled).toBe(true);
    expect(unlimited.connection.giveUpAt).toBeNull();
    expect(unlimited.stalls).toEqual([true]);
  }, 30_000);
});
