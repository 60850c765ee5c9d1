// Port forwarding through `tetherStreams` over WebSocket and stdio, with real sockets on 127.0.0.1:
// byte-exact transfers both ways at once (many streams up to 16 MiB, and 256 MiB down with 32 MiB up),
// half-close both ways, and a refused port refused at once.
// (The rest, on one ws link: port-forward-link.test.ts.)
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PortForward } from '../../../electron/client/forwarding/port-forward';
import type { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { StreamErrorKind } from '../../../shared/protocol';
import { useForwardRig } from '../../support/forward-rig';
import {
  digestUntilEnd,
  exchange,
  MiB,
  outcome,
  portOf,
  sha,
  streamBlocks,
  tcpServer,
  type StreamDigest,
} from '../../support/forward-peers';

const rig = useForwardRig();
const { newClient, forward } = rig;

describe.each(['ws', 'stdio'] as const)('a forward over %s', (transport) => {
  let client: RemoteExecServerClient;
  let echoForward: PortForward;
  beforeAll(async () => {
    client = newClient(transport);
    await client.connect();
    echoForward = await forward(client, portOf(rig.echo));
  });

  it('carries 0 B, 1 B, 64 KiB ± 1 and 16 MiB exactly, both directions at once', async () => {
    const sizes = [0, 1, 64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 16 * MiB];
    const payloads = sizes.map((size) => randomBytes(size));
    // All at once: several streams share the link, each echoing while it is still being sent.
    const echoed = await Promise.all(payloads.map((payload) => exchange(echoForward.localPort, payload)));
    for (const [i, payload] of payloads.entries()) {
      expect(echoed[i]!.length, `size ${sizes[i]}`).toBe(payload.length);
      expect(sha(echoed[i]!), `size ${sizes[i]}`).toBe(sha(payload));
    }
  });

  it('carries 256 MiB down while 32 MiB go up, byte for byte (streamed and hashed, never held whole)', async () => {
    // One big direction is what a forward mostly carries (a dev server's bundles); the smaller
    // upload at the same time keeps credit flowing both ways on the one stream.
    const down = 256 * MiB;
    const up = 32 * MiB;
    let hostDone: (sides: Promise<[StreamDigest, StreamDigest]>) => void = () => undefined;
    const hostSide = new Promise<[StreamDigest, StreamDigest]>((resolve) => (hostDone = resolve));
    const host = await tcpServer('127.0.0.1', (socket) => {
      hostDone(Promise.all([digestUntilEnd(socket), streamBlocks(socket, randomBytes(MiB), down)]));
    });
    const hostForward = await forward(client, portOf(host));
    const local = net.connect({ host: '127.0.0.1', port: hostForward.localPort, allowHalfOpen: true });
    await new Promise<void>((resolve) => local.once('connect', () => resolve()));
    const [downloaded, uploaded] = await Promise.all([
      digestUntilEnd(local),
      streamBlocks(local, randomBytes(MiB), up),
    ]);
    const [hostReceived, hostSent] = await hostSide;
    expect(hostSent.bytes).toBe(down);
    expect(downloaded).toEqual(hostSent);
    expect(uploaded.bytes).toBe(up);
    expect(hostReceived).toEqual(uploaded);
    local.destroy();
    await hostForward.stop();
    host.close();
  }, 180_000);

  it('half-closes both ways: the host ends first and still reads what follows', async () => {
    let received = '';
    const greeter = await tcpServer('127.0.0.1', (socket) => {
      socket.end('hello from the host');
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    });
    const received$ = new Promise<void>((resolve) =>
      greeter.once('connection', (socket) => socket.on('end', () => resolve())),
    );
    const greeterForward = await forward(client, portOf(greeter));
    const local = net.connect({ host: '127.0.0.1', port: greeterForward.localPort, allowHalfOpen: true });
    let got = '';
    local.on('data', (chunk: Buffer) => (got += chunk.toString()));
    await new Promise<void>((resolve) => local.once('end', () => resolve()));
    expect(got).toBe('hello from the host');
    // Our side is still open for writing after the host's end.
    local.end('and a reply after your end');
    await received$;
    expect(received).toBe('and a reply after your end');
    await greeterForward.stop();
    greeter.close();
  });

  it('refuses a local connection at once when nothing listens on the host port', async () => {
    const closed = await tcpServer('127.0.0.1', () => undefined);
    const freePort = portOf(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refusing = await forward(client, freePort);
    const result = await outcome(refusing.localPort);
    expect(result.bytes).toBe(0);
    expect(result.how).toBe('ECONNRESET');
    expect(result.ms).toBeLessThan(1_000);
    await expect(
      client.pipeStream(new net.Socket(), { host: 'localhost', port: freePort }),
    ).rejects.toMatchObject({ rpc: { data: { kind: StreamErrorKind.refused } } });
  });
});
