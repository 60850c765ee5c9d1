// The web host over real sockets: token and Origin checks on HTTP and WebSocket (wrong tokens of the
// right length included), malformed messages, unknown commands and invalid input as typed errors, a
// happy-path invoke with its event through the shared web bridge, one-time download URLs, and the
// `tether web` command line.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { IpcError, type Settings } from '../../../shared/ipc';
import {
  createWebSocketBridge,
  type WebSocketBridge,
  type WebSocketLike,
} from '../../../shared/ipc/web-bridge-client';
import { AppService } from '../../../electron/app/app-service';
import { remoteClientFactory } from '../../../electron/app/client-factory';
import { FileSecretStore } from '../../../electron/app/file-secret-store';
import { localServerCommand } from '../../../electron/app/local-server';
import { WebDownloads } from '../../../electron/web/web-downloads';
import { newToken, startWebHost, type WebHost } from '../../../electron/web/web-host';
import { REPO_ROOT, TETHER_BIN } from '../../support/exec-servers';

let dir: string;
let service: AppService;
let host: WebHost;
let token: string;
let origin: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tether-web-'));
  const staticDir = path.join(dir, 'renderer');
  mkdirSync(path.join(staticDir, 'assets'), { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Tether</title>');
  writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'secret.txt'), 'outside the static folder');
  token = newToken();
  const downloads = new WebDownloads(token);
  service = await AppService.create({
    dataDir: path.join(dir, 'data'),
    secrets: new FileSecretStore(path.join(dir, 'data', 'tokens.json')),
    createClient: remoteClientFactory(() => undefined),
    localServer: localServerCommand({ packageRoot: REPO_ROOT, execPath: process.execPath, electron: false }),
    host: { downloads, openExternal: async () => undefined },
  });
  host = await startWebHost({ service, downloads, staticDir, host: '127.0.0.1', port: 0, token });
  origin = `http://127.0.0.1:${host.port}`;
});
afterAll(async () => {
  await host?.close();
  await service?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

function wsUrl(tokenValue: string | null): string {
  return `ws://127.0.0.1:${host.port}/ipc${tokenValue === null ? '' : `?token=${encodeURIComponent(tokenValue)}`}`;
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

function bridge(): WebSocketBridge {
  return createWebSocketBridge(wsUrl(token), (url) => new WebSocket(url) as unknown as WebSocketLike);
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

/** The name of the token cookie, as the first page load sets it. */
async function tokenCookieName(): Promise<string> {
  const page = await fetch(`${origin}/?token=${token}`);
  return page.headers.get('set-cookie')!.split(';')[0]!.split('=')[0]!;
}

/**
 * Wrong tokens exactly as long as the real one: another random token, and the real one with only its
 * first or only its last character changed. A check that compares lengths, or stops early, lets one in.
 */
function sameLengthImpostors(): string[] {
  const other = (c: string): string => (c === 'A' ? 'B' : 'A');
  const impostors = [
    newToken(),
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
  it('refuses requests without the right token, and serves the app with it', async () => {
    expect((await fetch(`${origin}/`)).status).toBe(401);
    expect((await fetch(`${origin}/?token=wrong`)).status).toBe(401);
    expect((await fetch(`${origin}/assets/app.js`)).status).toBe(401);
    const page = await fetch(`${origin}/?token=${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Tether</title>');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    const asset = await fetch(`${origin}/assets/app.js`, { headers: { cookie } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${origin}/..%2fsecret.txt?token=${token}`)).status).toBe(404);
    // A DNS-rebinding page would reach us under a foreign Host name.
    expect(await statusWithHost(`/?token=${token}`, 'evil.example:80')).toBe(403);
  });
});

describe('web host: wrong tokens of the right length', () => {
  it('are refused on every HTTP path: page, asset and download, by query and by cookie', async () => {
    const cookie = await tokenCookieName();
    const b = bridge();
    try {
      await localConnected(b);
      const { url } = await b.invoke('transfers.startDownload', {
        envId: 'local',
        remotePath: path.join(dir, 'secret.txt'),
      });
      const download = new URL(url!, origin).pathname;
      for (const wrong of sameLengthImpostors()) {
        for (const target of ['/', '/assets/app.js', download]) {
          expect((await fetch(`${origin}${target}?token=${wrong}`)).status, `${target} by query`).toBe(401);
          const byCookie = await fetch(`${origin}${target}`, { headers: { cookie: `${cookie}=${wrong}` } });
          expect(byCookie.status, `${target} by cookie`).toBe(401);
        }
      }
      // The refused attempts did not use up the one-time link: the right token still gets the file.
      const served = await fetch(`${origin}${url}`);
      expect(served.status).toBe(200);
      expect(await served.text()).toBe('outside the static folder');
    } finally {
      b.close();
    }
  });

  it('are refused on the WebSocket upgrade, by query and by cookie', async () => {
    const cookie = await tokenCookieName();
    for (const wrong of sameLengthImpostors()) {
      expect(await openRaw(wsUrl(wrong))).toBe(401);
      expect(await openRaw(wsUrl(null), { cookie: `${cookie}=${wrong}` })).toBe(401);
    }
    // The same cookie with the right token is let in, so the refusals above were the token's.
    const ok = await openRaw(wsUrl(null), { cookie: `${cookie}=${token}` });
    expect(ok).toBeInstanceOf(WebSocket);
    (ok as WebSocket).close();
  });
});

describe('web host: WebSocket contract', () => {
  it('refuses upgrades without the token (401) or from a foreign Origin (403)', async () => {
    expect(await openRaw(wsUrl(null))).toBe(401);
    expect(await openRaw(wsUrl('wrong'))).toBe(401);
    expect(await openRaw(wsUrl(token), { Origin: 'http://evil.example' })).toBe(403);
    expect(await openRaw(wsUrl(token), { Origin: 'null' })).toBe(403);
    const ok = await openRaw(wsUrl(token), { Origin: origin });
    expect(ok).toBeInstanceOf(WebSocket);
    (ok as WebSocket).close();
  });

  it('answers malformed messages with a clear error and keeps serving', async () => {
    const ws = (await openRaw(wsUrl(token))) as WebSocket;
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

  it('serves a download once through its one-time URL', async () => {
    const b = bridge();
    try {
      await localConnected(b);
      const file = path.join(dir, 'secret.txt');
      const { transfer, url } = await b.invoke('transfers.startDownload', {
        envId: 'local',
        remotePath: file,
      });
      expect(transfer.name).toBe('secret.txt');
      expect(url).toMatch(/^\/download\//);
      const response = await fetch(`${origin}${url}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toContain('secret.txt');
      expect(await response.text()).toBe('outside the static folder');
      expect((await fetch(`${origin}${url}`)).status).toBe(404);
    } finally {
      b.close();
    }
  });
});

describe('tether web (command line)', () => {
  it('prints the tokenised URL first, refuses non-loopback hosts, and serves the contract', async () => {
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

    const child = spawn(
      process.execPath,
      [TETHER_BIN, 'web', '--no-open', '--port', '0', '--data-dir', dataDir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        readline.createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`tether web exited with ${code}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{20,}$/);
      const parsed = new URL(url);
      expect((await fetch(`${parsed.origin}/`)).status).toBe(401);
      const b = createWebSocketBridge(
        `ws://${parsed.host}/ipc?token=${parsed.searchParams.get('token')}`,
        (u) => new WebSocket(u) as unknown as WebSocketLike,
      );
      try {
        expect((await b.invoke('environments.list', {}))[0]?.id).toBe('local');
      } finally {
        b.close();
      }
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
