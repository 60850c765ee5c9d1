// The client over wss:// against Tether's server serving a self-signed certificate made at test
// time: a pinned fingerprint connects and runs a process; no pin, or a different pin, fails at
// once and for good with both fingerprints named, before the token is sent; a cut wss link
// reconnects and loses nothing.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../../electron/client/api';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { FaultProxy } from '../../support/fault-proxy';
import { makeSelfSignedCertificate, startWssServer } from '../../support/tls';
import { ALL_TICKS, collect, outputProducedWhileCut, waitFor } from './helpers';

/** One token for every server here, so a swapped server differs only in its certificate. */
const TOKEN = randomBytes(24).toString('base64url');

describe('RemoteExecServerClient over wss:// (tether)', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const wssServer = () => startWssServer(cleanups, { token: TOKEN });

  function clientFor(url: string, tlsFingerprint?: string): RemoteExecServerClient {
    const client = new RemoteExecServerClient({
      transport: { kind: 'ws', url, token: TOKEN, ...(tlsFingerprint ? { tlsFingerprint } : {}) },
    });
    cleanups.push(() => client.close());
    return client;
  }

  /** Every state the client passes through, to show that a refusal never turns into retries. */
  function states(client: RemoteExecServerClient): ConnectionState[] {
    const seen: ConnectionState[] = [];
    client.onStateChange((state) => seen.push(state));
    return seen;
  }

  it('serves wss and runs a process for a client that pins its fingerprint', async () => {
    const { server, cert } = await wssServer();
    expect(server.url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+$/);
    // Pins match in any spelling: lowercase, no colons.
    const client = clientFor(server.url!, cert.fingerprint.replace(/:/g, '').toLowerCase());
    await client.connect();
    const out = collect(
      await client.startProcess({ argv: ['/bin/echo', 'over tls'], cwd: server.home, tty: false }),
    );
    await waitFor('closed', () => out.closed());
    expect(out.text()).toBe('over tls\n');
    expect(out.exitCode()).toBe(0);
  });

  it('refuses a self-signed certificate without a pin, naming its fingerprint, and does not retry', async () => {
    const { server, cert } = await wssServer();
    const client = clientFor(server.url!);
    const seen = states(client);
    await expect(client.connect()).rejects.toMatchObject({ code: 'certificate' });
    expect(client.state).toMatchObject({ kind: 'failed', code: 'certificate' });
    const reason = client.state.kind === 'failed' ? client.state.reason : '';
    expect(reason).toContain('could not be verified');
    expect(reason).toContain(cert.fingerprint);
    expect(seen.some((s) => s.kind === 'reconnecting')).toBe(false);
  });

  it('sends nothing, the token included, to a server whose certificate it refuses', async () => {
    const cert = makeSelfSignedCertificate();
    cleanups.push(() => cert.remove());
    // A bare TLS server that records every byte a client sends after the handshake.
    let received = 0;
    let peerClosed!: () => void;
    const closed = new Promise<void>((resolve) => (peerClosed = resolve));
    const server = tls.createServer(
      { cert: readFileSync(cert.certFile), key: readFileSync(cert.keyFile) },
      (socket) => {
        socket.on('data', (data: Buffer) => (received += data.length));
        socket.on('error', () => undefined);
      },
    );
    // The TCP socket under it, whose close means the client is gone (a handshake cut short by the
    // client never reaches the TLS connection listener above).
    server.on('connection', (raw: Socket) => raw.on('close', () => peerClosed()));
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `wss://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new RemoteExecServerClient({ transport: { kind: 'ws', url, token: 'do-not-leak-me' } });
    cleanups.push(() => client.close());
    const refusal = client.connect().catch((error: unknown) => error);
    await closed;
    expect(received).toBe(0);
    expect(await refusal).toMatchObject({ code: 'certificate' });
  });

  it('fails hard on a certificate other than the pinned one, naming both fingerprints', async () => {
    const { server, cert } = await wssServer();
    const other = makeSelfSignedCertificate();
    cleanups.push(() => other.remove());
    const client = clientFor(server.url!, other.fingerprint);
    const seen = states(client);
    await expect(client.connect()).rejects.toMatchObject({ code: 'certificate' });
    expect(client.state).toMatchObject({ kind: 'failed', code: 'certificate' });
    const reason = client.state.kind === 'failed' ? client.state.reason : '';
    expect(reason).toContain('has changed');
    expect(reason).toContain(cert.fingerprint);
    expect(reason).toContain(other.fingerprint);
    expect(seen.some((s) => s.kind === 'reconnecting')).toBe(false);
  });

  it('fails hard when the certificate changes behind a pinned link, instead of reconnecting forever', async () => {
    const { server, cert } = await wssServer();
    const { server: impostor, cert: other } = await wssServer();
    const proxy = await FaultProxy.forUrl(server.url!);
    cleanups.push(() => proxy.close());
    const client = clientFor(proxy.url('wss'), cert.fingerprint);
    await client.connect();
    // The same address now answers with another certificate.
    const impostorUrl = new URL(impostor.url!);
    proxy.retarget({ host: impostorUrl.hostname, port: Number(impostorUrl.port) });
    proxy.cutAll();
    await waitFor('failed', () => client.state.kind === 'failed', 45_000);
    expect(client.state).toMatchObject({ kind: 'failed', code: 'certificate' });
    const reason = client.state.kind === 'failed' ? client.state.reason : '';
    expect(reason).toContain(cert.fingerprint);
    expect(reason).toContain(other.fingerprint);
  });

  it('reconnects through a cut wss link and delivers the output made meanwhile, in order', async () => {
    const { server, cert } = await wssServer();
    const proxy = await FaultProxy.forUrl(server.url!);
    cleanups.push(() => proxy.close());
    const client = clientFor(proxy.url('wss'), cert.fingerprint);
    const out = await outputProducedWhileCut(client, proxy, server.home);
    expect(out.text()).toBe(ALL_TICKS);
    expect(out.inOrder()).toBe(true);
    expect(out.gaps()).toHaveLength(0);
    expect(client.health().reconnectCount).toBe(1);
  });
});
