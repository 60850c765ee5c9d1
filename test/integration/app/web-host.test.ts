// The web host over real sockets: login (the printed token or a one-time code traded for a cookie
// scoped to this launch's path, then redirected away), token and Origin checks on HTTP and WebSocket
// (wrong tokens of the right length included), malformed messages, unknown commands and invalid
// input as typed errors, a happy-path invoke with its event through the shared web bridge, one-time
// download URLs, and the `tether web` command line (its browser opener, an occupied port).
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { IpcError, webSocketUrlFor, type Settings } from '../../../shared/ipc';
import {
  createWebSocketBridge,
  type WebSocketBridge,
  type WebSocketLike,
} from '../../../shared/ipc/web-bridge-client';
import { AppService } from '../../../electron/app/app-service';
import { remoteClientFactory } from '../../../electron/app/environments/client-factory';
import { FileSecretStore } from '../../../electron/app/persistence/file-secret-store';
import { localServerCommand } from '../../../electron/app/environments/local-server';
import { WebCredentials } from '../../../electron/web/web-credentials';
import { WebDownloads } from '../../../electron/web/web-downloads';
import { startWebHost, type WebHost } from '../../../electron/web/web-host';
import { REPO_ROOT, TETHER_BIN } from '../../support/exec-servers';

let dir: string;
let staticDir: string;
let service: AppService;
let host: WebHost;
let credentials: WebCredentials;
let token: string;
let origin: string;
/** `http://127.0.0.1:PORT/<scope>/`: the app's page, no credential. */
let page: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tether-web-'));
  staticDir = path.join(dir, 'renderer');
  mkdirSync(path.join(staticDir, 'assets'), { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Tether</title>');
  writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'secret.txt'), 'outside the static folder');
  credentials = new WebCredentials();
  token = credentials.token;
  const downloads = new WebDownloads(credentials.scope);
  service = await AppService.create({
    dataDir: path.join(dir, 'data'),
    secrets: new FileSecretStore(path.join(dir, 'data', 'tokens.json')),
    createClient: remoteClientFactory(() => undefined),
    localServer: localServerCommand({ packageRoot: REPO_ROOT, execPath: process.execPath, electron: false }),
    host: { downloads, openExternal: async () => undefined },
  });
  host = await startWebHost({ service, downloads, staticDir, host: '127.0.0.1', port: 0, credentials });
  origin = `http://127.0.0.1:${host.port}`;
  page = `${origin}${credentials.scope}`;
});
afterAll(async () => {
  await host?.close();
  await service?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

function wsUrl(query = ''): string {
  return `ws://127.0.0.1:${host.port}${credentials.scope}ipc${query}`;
}

function bearer(value: string): Record<string, string> {
  return { authorization: `Bearer ${value}` };
}

/** Opens a raw WebSocket; resolves with the socket, or with the HTTP status it was refused with. */
function openRaw(url: string, headers: Record<string, string> = {}): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', (error) => reject(error));
  });
}

function bridgeAt(url: string, secret: string): WebSocketBridge {
  return createWebSocketBridge(
    url,
    (u) => new WebSocket(u, { headers: bearer(secret) }) as unknown as WebSocketLike,
  );
}

function bridge(): WebSocketBridge {
  return bridgeAt(wsUrl(), token);
}

function statusWithHost(pathAndQuery: string, hostHeader: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: '127.0.0.1', port: host.port, path: pathAndQuery, headers: { host: hostHeader } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    request.once('error', reject);
  });
}

function nextMessage(ws: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      if (message.type === 'event') return;
      ws.off('message', onMessage);
      resolve(message);
    };
    ws.on('message', onMessage);
  });
}

/** Resolves once the Local environment is connected, as seen through the bridge. */
function localConnected(b: WebSocketBridge): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = b.on('environments.changed', (view) => {
      if (view.id === 'local' && view.link.kind === 'connected') {
        stop();
        resolve();
      }
    });
    void b.invoke('environments.list', {}).then((envs) => {
      if (envs[0]?.link.kind === 'connected') resolve();
    });
  });
}

/** Opens a login URL as a browser would, without following the redirect. */
function logIn(url: string, method = 'GET'): Promise<Response> {
  return fetch(url, { redirect: 'manual', method });
}

/** The `name=value` cookie pair a login answer sets, with its attributes parsed. */
function cookieOf(response: Response): { pair: string; name: string; attributes: Map<string, string> } {
  const [pair, ...rest] = response.headers
    .get('set-cookie')!
    .split(';')
    .map((part) => part.trim());
  const attributes = new Map(
    rest.map((part) => {
      const [key, ...value] = part.split('=');
      return [key!.toLowerCase(), value.join('=')] as const;
    }),
  );
  return { pair: pair!, name: pair!.split('=')[0]!, attributes };
}

/** The cookie pair a browser gets by opening the printed URL. */
async function loginCookie(): Promise<string> {
  return cookieOf(await logIn(host.url)).pair;
}

/** Starts a download of secret.txt through a bridge; returns its one-time URL. */
async function startDownload(b: WebSocketBridge): Promise<string> {
  await localConnected(b);
  const { url } = await b.invoke('transfers.startDownload', {
    envId: 'local',
    remotePath: path.join(dir, 'secret.txt'),
  });
  return url!;
}

/**
 * Wrong tokens exactly as long as the real one: another random token, and the real one with only its
 * first or only its last character changed. A check that compares lengths, or stops early, lets one in.
 */
function sameLengthImpostors(): string[] {
  const other = (c: string): string => (c === 'A' ? 'B' : 'A');
  const impostors = [
    new WebCredentials().token,
    `${other(token[0]!)}${token.slice(1)}`,
    `${token.slice(0, -1)}${other(token.at(-1)!)}`,
  ];
  for (const wrong of impostors) {
    expect(wrong).toHaveLength(token.length);
    expect(wrong).not.toBe(token);
  }
  return impostors;
}

describe('web host: HTTP', () => {
  it('refuses requests without a login, and serves the app with its cookie', async () => {
    expect((await fetch(`${origin}/`)).status).toBe(401);
    expect((await fetch(page)).status).toBe(401);
    expect((await fetch(`${page}?token=wrong`)).status).toBe(401);
    expect((await fetch(`${page}assets/app.js`)).status).toBe(401);
    const cookie = await loginCookie();
    const served = await fetch(page, { headers: { cookie } });
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('<title>Tether</title>');
    expect(served.headers.get('content-security-policy')).toContain("script-src 'self'");
    const asset = await fetch(`${page}assets/app.js`, { headers: { cookie } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${page}assets/app.js`, { headers: bearer(token) })).status).toBe(200);
    expect((await fetch(`${page}..%2f..%2fsecret.txt`, { headers: { cookie } })).status).toBe(404);
    // A DNS-rebinding page would reach us under a foreign Host name.
    expect(await statusWithHost(`${credentials.scope}?token=${token}`, 'evil.example:80')).toBe(403);
  });
});

describe('web host: login leaves no credential in the URL', () => {
  it('trades the printed token for the cookie and redirects to the page without it', async () => {
    expect(host.url).toBe(`${page}?token=${token}`);
    const answer = await logIn(`${page}assets/app.js?token=${token}&v=2`);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`${credentials.scope}assets/app.js?v=2`);
    expect(answer.headers.get('location')).not.toContain(token);
    expect(cookieOf(answer).pair).toBe(`${credentials.cookieName}=${credentials.session}`);
    // The printed URL is the user's to reuse (a second browser, a new window).
    expect((await logIn(host.url)).status).toBe(303);
  });

  it('trades a one-time code for the cookie once; a HEAD does not use it up', async () => {
    const url = host.oneTimeUrl();
    expect(url).not.toContain(token);
    expect(url.startsWith(`${page}?code=`)).toBe(true);
    expect((await logIn(url, 'HEAD')).status).toBe(401);
    const first = await logIn(url);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(credentials.scope);
    expect(cookieOf(first).pair).toBe(`${credentials.cookieName}=${credentials.session}`);
    const again = await logIn(url);
    expect(again.status).toBe(401);
    expect(again.headers.get('set-cookie')).toBeNull();
  });
});

describe('web host: the cookie belongs to this host only', () => {
  it('is scoped to a random path and name, and the generic cookie is refused', async () => {
    const cookie = cookieOf(await logIn(host.url));
    // Cookies ignore ports: scoped to `/` a browser would hand it to every server on 127.0.0.1.
    expect(cookie.attributes.get('path')).toBe(credentials.scope);
    expect(credentials.scope).toMatch(/^\/[A-Za-z0-9_-]{16}\/$/);
    expect(cookie.attributes.has('httponly')).toBe(true);
    expect(cookie.attributes.get('samesite')).toBe('Lax');
    const another = new WebCredentials();
    expect(another.scope).not.toBe(credentials.scope);
    expect(another.cookieName).not.toBe(credentials.cookieName);
    // The right session under a name that is not this host's is not a login.
    for (const name of ['tether_token', another.cookieName]) {
      const pair = `${name}=${credentials.session}`;
      expect((await fetch(page, { headers: { cookie: pair } })).status, name).toBe(401);
      expect(await openRaw(wsUrl(), { cookie: pair }), name).toBe(401);
    }
    // The cookie carries the session, not the printed token.
    expect(credentials.session).not.toBe(token);
    expect((await fetch(page, { headers: { cookie: `${credentials.cookieName}=${token}` } })).status).toBe(
      401,
    );
    // Nothing is served outside the scope.
    expect((await fetch(`${origin}/assets/app.js`, { headers: { cookie: cookie.pair } })).status).toBe(401);
    expect(await openRaw(`ws://127.0.0.1:${host.port}/ipc`, bearer(token))).toBe(404);
  });
});

describe('web host: a restart on the remembered address', () => {
  it('keeps the path and the login cookie, but not the printed token', async () => {
    const cookie = await loginCookie();
    const restarted = new WebCredentials({
      launch: credentials.scope.slice(1, -1),
      session: credentials.session,
    });
    expect(restarted.scope).toBe(credentials.scope);
    expect(restarted.cookieName).toBe(credentials.cookieName);
    expect(restarted.cookie()).toBe(credentials.cookie());
    // The token the old launch printed is dead: a new one is printed each start.
    expect(restarted.token).not.toBe(token);
    const request = (headers: Record<string, string>) => ({ headers }) as http.IncomingMessage;
    expect(restarted.authenticates(request({ cookie }))).toBe(true);
    expect(restarted.authenticates(request({ authorization: `Bearer ${token}` }))).toBe(false);
    expect(restarted.isToken(token)).toBe(false);
  });
});

describe('web host: wrong tokens of the right length', () => {
  it('are refused on every HTTP path: page, asset and download, by query, cookie and bearer', async () => {
    const b = bridge();
    try {
      const download = await startDownload(b);
      expect(download).not.toContain(token);
      for (const wrong of sameLengthImpostors()) {
        for (const target of [credentials.scope, `${credentials.scope}assets/app.js`, download]) {
          expect((await fetch(`${origin}${target}?token=${wrong}`)).status, `${target} by query`).toBe(401);
          const byCookie = await fetch(`${origin}${target}`, {
            headers: { cookie: `${credentials.cookieName}=${wrong}` },
          });
          expect(byCookie.status, `${target} by cookie`).toBe(401);
          expect((await fetch(`${origin}${target}`, { headers: bearer(wrong) })).status).toBe(401);
        }
      }
      // The refused attempts did not use up the one-time link: the cookie still gets the file.
      const served = await fetch(`${origin}${download}`, { headers: { cookie: await loginCookie() } });
      expect(served.status).toBe(200);
      expect(await served.text()).toBe('outside the static folder');
    } finally {
      b.close();
    }
  });

  it('are refused on the WebSocket upgrade, by cookie and by bearer', async () => {
    for (const wrong of sameLengthImpostors()) {
      expect(await openRaw(wsUrl(), { cookie: `${credentials.cookieName}=${wrong}` })).toBe(401);
      expect(await openRaw(wsUrl(), bearer(wrong))).toBe(401);
    }
    // The same cookie with the right token is let in, so the refusals above were the token's.
    const ok = await openRaw(wsUrl(), { cookie: await loginCookie() });
    expect(ok).toBeInstanceOf(WebSocket);
    (ok as WebSocket).close();
  });
});

describe('web host: WebSocket contract', () => {
  it('authenticates by cookie or bearer only, never by a token in the URL', async () => {
    // The page's own socket URL carries no credential; its cookie does.
    const socketUrl = webSocketUrlFor(new URL(host.url));
    expect(socketUrl).toBe(wsUrl());
    const byCookie = await openRaw(socketUrl, { cookie: await loginCookie(), Origin: origin });
    expect(byCookie).toBeInstanceOf(WebSocket);
    (byCookie as WebSocket).close();
    expect(await openRaw(wsUrl(`?token=${token}`))).toBe(401);
  });

  it('refuses upgrades without the token (401) or from a foreign Origin (403)', async () => {
    expect(await openRaw(wsUrl())).toBe(401);
    expect(await openRaw(wsUrl(), bearer('wrong'))).toBe(401);
    expect(await openRaw(wsUrl(), { ...bearer(token), Origin: 'http://evil.example' })).toBe(403);
    expect(await openRaw(wsUrl(), { ...bearer(token), Origin: 'null' })).toBe(403);
    const ok = await openRaw(wsUrl(), { ...bearer(token), Origin: origin });
    expect(ok).toBeInstanceOf(WebSocket);
    (ok as WebSocket).close();
  });

  it('answers malformed messages with a clear error and keeps serving', async () => {
    const ws = (await openRaw(wsUrl(), bearer(token))) as WebSocket;
    try {
      const cases: Array<[string | Buffer, number]> = [
        ['this is not json', -1],
        [JSON.stringify({ type: 'invoke', name: 'settings.get' }), -1],
        [JSON.stringify({ type: 'invoke', id: 7 }), 7],
        [JSON.stringify([1, 2, 3]), -1],
        [Buffer.from([1, 2, 3]), -1],
      ];
      for (const [frame, id] of cases) {
        const reply = nextMessage(ws);
        ws.send(frame, { binary: Buffer.isBuffer(frame) });
        expect(await reply).toMatchObject({ type: 'result', id, ok: false, error: { code: 'invalidInput' } });
      }
      const reply = nextMessage(ws);
      ws.send(JSON.stringify({ type: 'invoke', id: 8, name: 'settings.get', input: {} }));
      expect(await reply).toMatchObject({ type: 'result', id: 8, ok: true });
    } finally {
      ws.close();
    }
  });

  it('maps unknown commands and invalid input to typed IpcErrors through the bridge', async () => {
    const b = bridge();
    try {
      const unknown = await (b.invoke as (n: string, i: unknown) => Promise<unknown>)(
        'nope.nothing',
        {},
      ).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(IpcError);
      expect(unknown).toMatchObject({ code: 'unknownCommand' });
      const invalid = await b
        .invoke('settings.update', { fontSize: 'huge' as unknown as number })
        .catch((e: unknown) => e);
      expect(invalid).toMatchObject({ code: 'invalidInput' });
      expect((invalid as Error).message).toContain('fontSize');
      const extra = await b.invoke('environments.list', { surprise: 1 } as never).catch((e: unknown) => e);
      expect(extra).toMatchObject({ code: 'invalidInput' });
      const missing = await b.invoke('processes.list', { envId: 'nope' }).catch((e: unknown) => e);
      expect(missing).toMatchObject({ code: 'notFound' });
    } finally {
      b.close();
    }
  });

  it('invokes a command and delivers its event (happy path)', async () => {
    const b = bridge();
    try {
      const changed = new Promise<Settings>((resolve) => b.on('settings.changed', resolve));
      const updated = await b.invoke('settings.update', { fontSize: 17 });
      expect(updated.fontSize).toBe(17);
      expect((await changed).fontSize).toBe(17);
      expect((await b.invoke('settings.get', {})).fontSize).toBe(17);
      const envs = await b.invoke('environments.list', {});
      expect(envs[0]).toMatchObject({ id: 'local', settings: { kind: 'local' } });
    } finally {
      b.close();
    }
  });

  it('serves a download once through its one-time URL, which carries no token', async () => {
    const b = bridge();
    try {
      await localConnected(b);
      const file = path.join(dir, 'secret.txt');
      const { transfer, url } = await b.invoke('transfers.startDownload', {
        envId: 'local',
        remotePath: file,
      });
      expect(transfer.name).toBe('secret.txt');
      expect(url).toMatch(new RegExp(`^${credentials.scope}download/[A-Za-z0-9_-]+$`));
      const cookie = await loginCookie();
      expect((await fetch(`${origin}${url}`)).status).toBe(401);
      const response = await fetch(`${origin}${url}`, { headers: { cookie } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toContain('secret.txt');
      expect(await response.text()).toBe('outside the static folder');
      expect((await fetch(`${origin}${url}`, { headers: { cookie } })).status).toBe(404);
    } finally {
      b.close();
    }
  });

  it('answers a HEAD on a download link without using it up', async () => {
    const b = bridge();
    try {
      const url = await startDownload(b);
      const cookie = await loginCookie();
      const head = await fetch(`${origin}${url}`, { method: 'HEAD', headers: { cookie } });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-disposition')).toContain('secret.txt');
      expect(head.headers.get('content-length')).toBe(String('outside the static folder'.length));
      const served = await fetch(`${origin}${url}`, { headers: { cookie } });
      expect(served.status).toBe(200);
      expect(await served.text()).toBe('outside the static folder');
    } finally {
      b.close();
    }
  });
});

/** Starts `tether web` with `args`; resolves with the child once it printed its first stdout line. */
async function startCli(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ReturnType<typeof spawn>; url: string }> {
  const child = spawn(process.execPath, [TETHER_BIN, 'web', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const url = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`tether web exited with ${code}`)));
  });
  return { child, url };
}

async function stopCli(child: ReturnType<typeof spawn>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('tether web (command line)', () => {
  it('prints the login URL first, refuses non-loopback hosts, and serves the contract', async () => {
    const dataDir = path.join(dir, 'cli-data');
    const refused = spawn(process.execPath, [
      TETHER_BIN,
      'web',
      '--no-open',
      '--host',
      '0.0.0.0',
      '--data-dir',
      dataDir,
    ]);
    const refusedCode = await new Promise<number | null>((resolve) => refused.once('exit', resolve));
    expect(refusedCode).not.toBe(0);

    const { child, url } = await startCli(['--no-open', '--port', '0', '--data-dir', dataDir]);
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{16}\/\?token=[A-Za-z0-9_-]{20,}$/);
      const parsed = new URL(url);
      expect((await fetch(`${parsed.origin}${parsed.pathname}`)).status).toBe(401);
      const b = bridgeAt(webSocketUrlFor(parsed), parsed.searchParams.get('token')!);
      try {
        expect((await b.invoke('environments.list', {}))[0]?.id).toBe('local');
      } finally {
        b.close();
      }
    } finally {
      await stopCli(child);
    }
  });

  it('opens the browser on a private redirect file: no token or code in the opener’s argv', async () => {
    // A stand-in for xdg-open that records the arguments every local user could read in /proc.
    const bin = path.join(dir, 'opener-bin');
    const record = path.join(dir, 'opener-args.txt');
    mkdirSync(bin);
    writeFileSync(
      path.join(bin, 'xdg-open'),
      `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}.tmp'\nmv '${record}.tmp' '${record}'\n`,
    );
    chmodSync(path.join(bin, 'xdg-open'), 0o755);
    const dataDir = path.join(dir, 'cli-open-data');
    const { child, url } = await startCli(['--port', '0', '--data-dir', dataDir], {
      ...process.env,
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    });
    try {
      await expect.poll(() => existsSync(record), { timeout: 30_000, interval: 50 }).toBe(true);
      const printedToken = new URL(url).searchParams.get('token')!;
      const args = readFileSync(record, 'utf8').trim().split('\n');
      expect(args).toHaveLength(1);
      expect(args[0]).toMatch(/^file:\/\//);
      expect(args[0]).not.toContain(printedToken);
      expect(args[0]).not.toContain('code=');
      const file = fileURLToPath(args[0]!);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      const html = readFileSync(file, 'utf8');
      expect(html).not.toContain(printedToken);
      const target = /http-equiv="refresh" content="0;url=([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
      expect(target.startsWith(`${new URL(url).origin}${new URL(url).pathname}?code=`)).toBe(true);
      const login = await logIn(target);
      expect(login.status).toBe(303);
      expect(login.headers.get('location')).toBe(new URL(url).pathname);
      // The cookie carries the remembered session, not the printed token, and logs the browser in.
      const loginPair = cookieOf(login).pair;
      expect(loginPair).not.toContain(printedToken);
      const pageUrl = `${new URL(url).origin}${new URL(url).pathname}`;
      expect((await fetch(pageUrl, { headers: { cookie: loginPair } })).status).toBe(200);
      // Spent: the code opens nothing again, and its file is gone.
      expect((await logIn(target)).status).toBe(401);
      expect(existsSync(path.dirname(file))).toBe(false);
    } finally {
      await stopCli(child);
    }
  });

  it('comes back on the same port and path after a restart, or says so when another program took the port', async () => {
    const dataDir = path.join(dir, 'cli-restart');
    const first = await startCli(['--no-open', '--data-dir', dataDir]);
    const firstUrl = new URL(first.url);
    const pageUrl = `${firstUrl.origin}${firstUrl.pathname}`;
    const login = cookieOf(await logIn(first.url)).pair;
    await stopCli(first.child);
    // What is remembered holds no token of the printed URL.
    const remembered = path.join(dataDir, 'web-address.json');
    expect(statSync(remembered).mode & 0o777).toBe(0o600);
    expect(readFileSync(remembered, 'utf8')).not.toContain(firstUrl.searchParams.get('token')!);

    const second = await startCli(['--no-open', '--data-dir', dataDir]);
    try {
      const secondUrl = new URL(second.url);
      expect(`${secondUrl.origin}${secondUrl.pathname}`).toBe(pageUrl);
      expect(secondUrl.searchParams.get('token')).not.toBe(firstUrl.searchParams.get('token'));
      // The browser logged in before the restart is still logged in; the old printed URL is not.
      expect((await fetch(pageUrl, { headers: { cookie: login } })).status).toBe(200);
      expect((await logIn(first.url)).status).toBe(401);
    } finally {
      await stopCli(second.child);
    }

    const occupier = net.createServer();
    await new Promise<void>((resolve) => occupier.listen(Number(firstUrl.port), '127.0.0.1', resolve));
    let stderr = '';
    const third = spawn(process.execPath, [TETHER_BIN, 'web', '--no-open', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    third.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        readline.createInterface({ input: third.stdout }).once('line', resolve);
        third.once('exit', (code) => reject(new Error(`tether web exited with ${code}: ${stderr}`)));
      });
      const thirdUrl = new URL(url);
      expect(thirdUrl.port).not.toBe(firstUrl.port);
      expect(thirdUrl.pathname).toBe(firstUrl.pathname);
      await expect
        .poll(() => stderr, { timeout: 10_000, interval: 50 })
        .toContain(`port ${firstUrl.port} (the last start's) is in use by another program`);
    } finally {
      await stopCli(third);
      occupier.close();
    }
  });

  it('says plainly that the port is taken, and exits with code 2', async () => {
    const occupier = net.createServer();
    await new Promise<void>((resolve) => occupier.listen(0, '127.0.0.1', resolve));
    const port = (occupier.address() as net.AddressInfo).port;
    try {
      const child = spawn(
        process.execPath,
        [TETHER_BIN, 'web', '--no-open', '--port', String(port), '--data-dir', path.join(dir, 'cli-busy')],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      expect(stderr).toContain(`tether web: 127.0.0.1:${port} is already in use`);
      expect(stderr).toContain('--port 0');
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(code).toBe(2);
      expect(stdout).toBe('');
    } finally {
      occupier.close();
    }
  });
});
