// Port forwarding against the real codex exec-server, which has no TCP streams: the forward speaks
// HTTP/1.1 itself and sends each request through codex's http/request on a second connection.
// Byte-exact bodies both ways, hop-by-hop headers, a gzip body codex decoded, a WebSocket refused
// with a page saying why, a refused port, a non-loopback target, many requests, and `tether forward`.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { PortForward } from '../../../electron/client/forwarding/port-forward';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { listeningPorts } from '../../../electron/app/forwarding/listening-ports';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { FaultProxy } from '../../support/fault-proxy';
import { MiB, portOf, sha } from '../../support/forward-peers';
import { tetherForward } from '../../support/tether-forward';
import { waitFor } from '../../support/wait';

const PLAIN = Buffer.from('a body the target compressed, which codex decompressed on the way\n'.repeat(200));

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request to the forward; resolves with what came back (Node's client does not decompress). */
function request(
  port: number,
  options: {
    method?: string;
    path?: string;
    body?: Buffer;
    headers?: http.OutgoingHttpHeaders;
    agent?: http.Agent;
  },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: options.headers,
        agent: options.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('forwarding through a codex server (http/request)', () => {
  let codex: StartedServer;
  let client: RemoteExecServerClient;
  let target: http.Server;
  let upgradesSeen = 0;
  /** Answers of /slow requests, held until the test lets them go. */
  const slowWaiting: Array<() => void> = [];
  /** What the target got last: its raw headers. */
  let lastHeaders: string[] = [];
  const forwards: PortForward[] = [];
  const problems: Array<{ message: string; refused: boolean }> = [];

  const forward = async (port: number, host = 'localhost'): Promise<PortForward> => {
    const started = await PortForward.start(client, {
      target: { host, port },
      localPort: 0,
      onConnectionError: (message, _error, refused) => problems.push({ message, refused }),
    });
    forwards.push(started);
    return started;
  };

  beforeAll(async () => {
    codex = await startServer('codex', 'ws');
    client = new RemoteExecServerClient({ transport: codex.transportSpec() });
    await client.connect();
    target = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        lastHeaders = req.rawHeaders;
        const url = new URL(req.url!, 'http://target');
        if (url.pathname === '/slow') {
          slowWaiting.push(() => res.end('slow'));
        } else if (url.pathname === '/bytes') {
          // Deterministic bytes, so the test knows what it should get.
          const size = Number(url.searchParams.get('n'));
          const body = Buffer.alloc(size);
          for (let i = 0; i < size; i++) body[i] = (i * 7 + (i >> 11)) & 0xff;
          // Chunked when asked: then only the framing tells a cut body from a whole one.
          const chunked = url.searchParams.has('chunked');
          res.writeHead(200, {
            'Content-Type': 'application/octet-stream',
            ...(chunked ? {} : { 'Content-Length': size }),
          });
          res.end(body);
        } else if (url.pathname === '/gzip') {
          const compressed = zlib.gzipSync(PLAIN);
          res.writeHead(200, {
            'Content-Type': 'text/plain',
            'Content-Encoding': 'gzip',
            'Content-Length': compressed.length,
          });
          res.end(compressed);
        } else {
          // Echoes the body, with hop-by-hop headers of its own that must stay on its hop.
          res.writeHead(200, {
            'Content-Type': 'application/octet-stream',
            'X-Method': req.method,
            'X-Body-Sha': createHash('sha256').update(Buffer.concat(chunks)).digest('hex'),
            Connection: 'keep-alive, X-Private-Hop',
            'X-Private-Hop': 'for the codex hop only',
            'Keep-Alive': 'timeout=5',
          });
          res.end(Buffer.concat(chunks));
        }
      });
    });
    target.on('upgrade', (_req, socket: net.Socket) => {
      upgradesSeen++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    for (const started of forwards) await started.stop();
    await client?.close();
    target?.close();
    await codex?.stop();
  });

  it('carries GET and POST bodies byte-exact (0 B, 1 B, 3 MiB) on its own connection, hop-by-hop headers left out', async () => {
    const started = await forward(portOf(target));
    for (const size of [0, 1, 3 * MiB]) {
      const body = randomBytes(size);
      const posted = await request(started.localPort, {
        method: 'POST',
        path: '/echo',
        body,
        headers: { 'Content-Length': size, Connection: 'keep-alive, X-Hop', 'X-Hop': '1', TE: 'trailers' },
      });
      expect(posted.status, `POST ${size}`).toBe(200);
      expect(posted.headers['x-method']).toBe('POST');
      expect(sha(posted.body), `POST ${size}`).toBe(sha(body));
      expect(posted.headers['x-body-sha'], `POST ${size}`).toBe(sha(body));
      // Neither the local client's hop-by-hop headers reached the target, nor the target's came back.
      const seen = lastHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
      expect(seen).not.toContain('x-hop');
      expect(seen).not.toContain('te');
      expect(posted.headers['x-private-hop']).toBeUndefined();

      const fetched = await request(started.localPort, { path: `/bytes?n=${size}` });
      const expected = Buffer.alloc(size);
      for (let i = 0; i < size; i++) expected[i] = (i * 7 + (i >> 11)) & 0xff;
      expect(fetched.status).toBe(200);
      expect(fetched.headers['content-length']).toBe(String(size));
      expect(sha(fetched.body), `GET ${size}`).toBe(sha(expected));
    }
    // The requests took the second connection; the main one still serves the session.
    expect(client.httpLinkOpen).toBe(true);
    expect(await client.fs.canonicalize('/')).toBe('/');
    expect(problems).toEqual([]);
  });

  it('labels a gzip body codex decompressed as what it is now', async () => {
    const started = await forward(portOf(target));
    const got = await request(started.localPort, { path: '/gzip', headers: { 'Accept-Encoding': 'gzip' } });
    expect(got.status).toBe(200);
    expect(got.headers['content-encoding']).toBeUndefined();
    expect(got.body.equals(PLAIN)).toBe(true);
    // Any length said is the decompressed one (codex drops the compressed one; chunked then).
    if (got.headers['content-length'] !== undefined)
      expect(Number(got.headers['content-length'])).toBe(PLAIN.length);
  });

  it('answers a WebSocket with a page saying it is not available, and never sends it on', async () => {
    const started = await forward(portOf(target));
    const socket = new WebSocket(`ws://127.0.0.1:${started.localPort}/hmr`);
    socket.on('error', () => undefined);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      socket.once('open', () => reject(new Error('the WebSocket opened')));
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
    });
    expect(answer.status).toBe(501);
    expect(answer.body).toContain('WebSockets are not available through a codex server');
    expect(upgradesSeen).toBe(0);
    expect(problems.some((p) => p.message.includes('A WebSocket to localhost'))).toBe(true);
    problems.length = 0;
  });

  it('answers 502 at once when nothing listens on the host, and refuses a target off the loopback', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = portOf(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refusedForward = await forward(freePort);
    const startedAt = Date.now();
    const refused = await request(refusedForward.localPort, { path: '/' });
    expect(refused.status).toBe(502);
    expect(refused.body.toString()).toContain(`Nothing answered at localhost:${freePort} on the host`);
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(problems.at(-1)?.refused).toBe(true);

    const offLoopback = await forward(80, '10.0.0.1');
    const off = await request(offLoopback.localPort, { path: '/' });
    expect(off.status).toBe(502);
    expect(off.body.toString()).toContain('10.0.0.1:80 is not a loopback address of the host');
    problems.length = 0;
  });

  it('reaches a target on ::1 only through localhost, and sends later requests there first', async () => {
    const v6 = http.createServer((req, res) => res.end(`${req.method} on ::1`));
    await new Promise<void>((resolve) => v6.listen(0, '::1', resolve));
    try {
      const started = await forward(portOf(v6));
      expect((await request(started.localPort, { path: '/' })).body.toString()).toBe('GET on ::1');
      // A POST is never tried twice, so it gets there only because the GET found the address.
      const posted = await request(started.localPort, { method: 'POST', path: '/', body: Buffer.from('x') });
      expect(posted.body.toString()).toBe('POST on ::1');
    } finally {
      await new Promise<void>((resolve) => v6.close(() => resolve()));
    }
  });

  it('answers 413 for a body larger than codex can take, and keeps serving', async () => {
    const started = await forward(portOf(target));
    const tooLarge = await request(started.localPort, {
      method: 'POST',
      path: '/echo',
      body: randomBytes(9 * MiB),
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.toString()).toContain('larger than 8 MiB');
    const after = await request(started.localPort, {
      method: 'POST',
      path: '/echo',
      body: Buffer.from('after'),
    });
    expect(after.body.toString()).toBe('after');
  });

  it('serves many requests, one after another on a kept-alive connection and many at once', async () => {
    const started = await forward(portOf(target));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 100; i++) {
      const body = Buffer.from(`request ${i}`);
      const got = await request(started.localPort, { method: 'POST', path: `/echo?i=${i}`, body, agent });
      expect(got.body.toString()).toBe(`request ${i}`);
    }
    agent.destroy();
    const bodies = Array.from({ length: 30 }, (_, i) => randomBytes(1000 + i * 100));
    const answers = await Promise.all(
      bodies.map((body) => request(started.localPort, { method: 'POST', path: '/echo', body })),
    );
    expect(answers.map((a) => sha(a.body))).toEqual(bodies.map(sha));
  });

  it('cuts a response in flight when the link drops, and serves again once it is back', async () => {
    const proxy = await FaultProxy.forUrl(codex.url!);
    const cutClient = new RemoteExecServerClient({ transport: { kind: 'ws', url: proxy.url() } });
    const started = await PortForward.start(cutClient, {
      target: { host: 'localhost', port: portOf(target) },
      localPort: 0,
    });
    try {
      expect(
        (
          await request(started.localPort, { method: 'POST', path: '/echo', body: Buffer.from('before') })
        ).body.toString(),
      ).toBe('before');
      // A large download under way when the link goes: the local client sees it fail, not end short.
      const outcome = new Promise<string>((resolve) => {
        const req = http.get(
          { host: '127.0.0.1', port: started.localPort, path: `/bytes?n=${64 * MiB}&chunked`, agent: false },
          (res) => {
            let received = 0;
            res.on('data', (chunk: Buffer) => {
              received += chunk.length;
              if (received > MiB && proxy.cutAll() === 0) return;
            });
            res.on('end', () => resolve(received === 64 * MiB ? 'complete' : 'ended short'));
            res.on('error', () => resolve('failed'));
            res.on('aborted', () => resolve('failed'));
          },
        );
        req.on('error', () => resolve('failed'));
      });
      expect(await outcome).toBe('failed');
      // The next request waits for the links to come back, then goes through.
      const after = await request(started.localPort, {
        method: 'POST',
        path: '/echo',
        body: Buffer.from('after'),
      });
      expect(after.status).toBe(200);
      expect(after.body.toString()).toBe('after');
    } finally {
      await started.stop();
      await cutClient.close();
      await proxy.close();
    }
  });

  it('sends a forward’s requests one at a time, and answers 503 past the bound of waiting ones', async () => {
    const started = await forward(portOf(target));
    const first = request(started.localPort, { path: '/slow' });
    await waitFor(() => slowWaiting.length === 1, 'the first request at the target');
    // 64 wait behind it (HTTP_FORWARD_MAX_QUEUED); the two after them are turned away at once.
    const queued = Array.from({ length: 64 }, () => request(started.localPort, { path: '/echo' }));
    await waitFor(() => started.waitingRequests === 64, '64 requests waiting');
    const over = await Promise.all([
      request(started.localPort, { path: '/echo' }),
      request(started.localPort, { path: '/echo' }),
    ]);
    expect(over.map((a) => a.status)).toEqual([503, 503]);
    expect(over[0]!.body.toString()).toContain('requests already wait for this forward');
    slowWaiting.shift()!();
    expect((await first).body.toString()).toBe('slow');
    expect((await Promise.all(queued)).every((a) => a.status === 200)).toBe(true);
  });

  it('answers 504 when the target sends no headers in time, and serves the next request on a fresh connection', async () => {
    // Not much less: codex's first http/request on a new session takes a few hundred ms more.
    const impatient = new RemoteExecServerClient({
      transport: codex.transportSpec(),
      httpHeadTimeoutMs: 3_000,
    });
    const started = await PortForward.start(impatient, {
      target: { host: 'localhost', port: portOf(target) },
      localPort: 0,
    });
    try {
      const silent = await request(started.localPort, { path: '/slow' });
      expect(silent.status).toBe(504);
      expect(silent.body.toString()).toContain('sent no response headers in time');
      // codex still waits on the silent target on the old connection; the next one answers now.
      const next = await Promise.race([
        request(started.localPort, { method: 'POST', path: '/echo', body: Buffer.from('next') }),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
      ]);
      expect(next?.body.toString()).toBe('next');
    } finally {
      for (const release of slowWaiting.splice(0)) release();
      await started.stop();
      await impatient.close();
    }
  });

  it('lists the host’s listening ports through fs/readFile', async () => {
    expect((await listeningPorts(client)).map((l) => l.port)).toContain(portOf(target));
  });

  it('works the same through tether forward', async () => {
    const forwarding = await tetherForward(['--server', codex.url!, `0:localhost:${portOf(target)}`]);
    try {
      const port = Number(forwarding.address.split(':')[1]);
      const body = randomBytes(MiB);
      const got = await request(port, { method: 'POST', path: '/echo', body });
      expect(sha(got.body)).toBe(sha(body));
      expect(forwarding.stderr()).toContain('plain HTTP is forwarded through its http/request');
      const socket = new WebSocket(`ws://127.0.0.1:${port}/`);
      socket.on('error', () => undefined);
      const status = await new Promise<number>((resolve) =>
        socket.once('unexpected-response', (_req, res) => resolve(res.statusCode!)),
      );
      expect(status).toBe(501);
    } finally {
      expect(await forwarding.stop()).toBe(0);
    }
    expect(forwarding.stderr()).toContain('WebSockets are not available through a codex server');
  });
});
