import { spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, TETHER_BIN, type StartedServer } from '../../support/exec-servers';
import { pidAlive } from '../../support/pids';
import { RpcPeer } from '../../support/rpc-peer';
import { waitFor } from '../../support/wait';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tetherServer(extraArgs: string[] = []): Promise<StartedServer> {
  const s = await startServer('tether', 'ws', { extraArgs });
  cleanups.push(() => s.stop());
  return s;
}

interface HttpAnswer {
  status: number;
  body: string;
  contentType: string | undefined;
}

function get(url: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get(url.replace(/^ws:/, 'http:'), { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (d: string) => (body += d));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body, contentType: response.headers['content-type'] }),
      );
    });
    request.on('error', reject);
  });
}

const upgrade = {
  connection: 'Upgrade',
  upgrade: 'websocket',
  'sec-websocket-version': '13',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
};

describe('HTTP surface and authentication', () => {
  it('serves /readyz, rejects plain GET / and unknown paths, and refuses any Origin', async () => {
    const s = await tetherServer();
    expect(await get(`${s.url}/readyz`)).toMatchObject({ status: 200, body: '' });
    expect(await get(`${s.url}/`)).toMatchObject({
      status: 400,
      body: "Connection header did not include 'upgrade'",
    });
    expect((await get(`${s.url}/healthz`)).status).toBe(404);
    expect(await get(`${s.url}/`, { ...upgrade, origin: 'http://127.0.0.1' })).toMatchObject({
      status: 403,
      body: '',
    });
  });

  it('checks bearer tokens with codex bodies, and accepts the right token', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-auth-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(path.join(dir, 'token'), 'sekrit-token\n');
    const s = await tetherServer([
      '--ws-auth',
      'capability-token',
      '--ws-token-file',
      path.join(dir, 'token'),
    ]);
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'missing websocket bearer token'],
      [{ authorization: 'Basic abc' }, 'invalid authorization header'],
      [{ authorization: 'Bearer wrong' }, 'invalid websocket bearer token'],
    ];
    for (const [headers, body] of cases) {
      expect(await get(`${s.url}/`, { ...upgrade, ...headers })).toEqual({
        status: 401,
        body,
        contentType: 'text/plain; charset=utf-8',
      });
    }
    expect((await get(`${s.url}/readyz`)).status).toBe(200);
    const c = await RpcPeer.connectWs(s.url!, { headers: { Authorization: 'bearer  sekrit-token ' } });
    cleanups.push(() => c.drop());
    await c.handshake();
    expect(await c.call('environment/status')).toEqual({ status: 'ready' });
    expect(s.stderr()).not.toContain('sekrit-token');
  });

  it('accepts --ws-token-sha256', async () => {
    const digest = createHash('sha256').update('abc').digest('hex');
    const s = await tetherServer(['--ws-auth', 'capability-token', '--ws-token-sha256', digest]);
    const c = await RpcPeer.connectWs(s.url!, { headers: { Authorization: 'Bearer abc' } });
    cleanups.push(() => c.drop());
    await c.handshake();
  });

  it('accepts HS256 bearer tokens with --ws-auth signed-bearer-token', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-jwt-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const secret = 'a-shared-secret-of-at-least-32-bytes';
    writeFileSync(path.join(dir, 'secret'), `${secret}\n`);
    const s = await tetherServer([
      '--ws-auth',
      'signed-bearer-token',
      '--ws-shared-secret-file',
      path.join(dir, 'secret'),
      '--ws-audience',
      'tether',
    ]);
    const sign = (claims: Record<string, unknown>): string => {
      const encode = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
      const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
      return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
    };
    const now = Math.floor(Date.now() / 1000);
    expect(
      await get(`${s.url}/`, {
        ...upgrade,
        authorization: `Bearer ${sign({ exp: now - 3600, aud: 'tether' })}`,
      }),
    ).toMatchObject({
      status: 401,
      body: 'expired websocket jwt',
    });
    const c = await RpcPeer.connectWs(s.url!, {
      headers: {
        Authorization: `Bearer ${sign({ exp: now + 60, aud: ['tether'] })}`,
      },
    });
    cleanups.push(() => c.drop());
    await c.handshake();
  });

  it('helper servers require their token: no header is 401, the token connects', async () => {
    const s = await tetherServer();
    expect(s.token).toBeDefined();
    expect(await get(`${s.url}/`, upgrade)).toMatchObject({
      status: 401,
      body: 'missing websocket bearer token',
    });
    const c = await RpcPeer.connectWs(s.url!, { headers: s.authHeaders() });
    cleanups.push(() => c.drop());
    await c.handshake();
  });
});

interface Startup {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `tether exec-server` with `args` until it exits or prints its URL (then stops it). */
function startup(args: string[]): Promise<Startup> {
  const child = spawn(process.execPath, [TETHER_BIN, 'exec-server', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (stdout.includes('\n')) child.kill('SIGTERM');
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('authentication by default', () => {
  it('refuses a loopback ws listener without --ws-auth (exit 1) and says how to make a token', async () => {
    const outcome = await startup(['--listen', 'ws://127.0.0.1:0']);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toContain('refusing to listen on ws://127.0.0.1:0 without authentication');
    expect(outcome.stderr).toContain('umask 077; head -c 32 /dev/urandom | base64 > ~/.tether-token');
    expect(outcome.stderr).toContain('--ws-auth capability-token --ws-token-file ~/.tether-token');
  });

  it('refuses the default listen address too: `tether exec-server` alone does not serve', async () => {
    const outcome = await startup([]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('without authentication');
  });

  it('refuses to listen beyond loopback without auth, even with --ws-auth none (exit 1)', async () => {
    const plain = await startup(['--listen', 'ws://0.0.0.0:0']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('without authentication');
    const none = await startup(['--listen', 'ws://0.0.0.0:0', '--ws-auth', 'none']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/--ws-auth none. on non-loopback/);
  });

  it('serves with --ws-auth none on loopback, warns on stderr, and says so in environmentInfo', async () => {
    const s = await tetherServer(['--ws-auth', 'none', '--log-level', 'error']);
    expect(s.token).toBeUndefined();
    // The warning follows the URL on another pipe, so it may arrive a moment later.
    await waitFor(() => s.stderr().includes('WARNING'), 'the --ws-auth none warning');
    expect(s.stderr()).toContain(
      `WARNING: --ws-auth none: ${s.url} accepts connections without authentication`,
    );
    const c = await RpcPeer.connectWs(s.url!);
    cleanups.push(() => c.drop());
    const init = await c.request('initialize', { clientName: 'trial' });
    const info = init.result?.environmentInfo as { capabilities?: Record<string, unknown> } | undefined;
    expect(info?.capabilities?.tetherUnauthenticatedListener).toBe(true);
  });

  it('does not flag a token-protected listener as unauthenticated', async () => {
    const s = await tetherServer();
    const c = await RpcPeer.connectWs(s.url!, { headers: s.authHeaders() });
    cleanups.push(() => c.drop());
    const init = await c.request('initialize', { clientName: 'x' });
    const info = init.result?.environmentInfo as { capabilities?: Record<string, unknown> } | undefined;
    expect(info?.capabilities).toBeDefined();
    expect(info?.capabilities?.tetherUnauthenticatedListener).toBeUndefined();
    expect(s.stderr()).not.toContain('WARNING');
  });
});

describe('shutdown', () => {
  it('kills every process group on SIGTERM and exits 0', async () => {
    const s = await startServer('tether', 'ws');
    cleanups.push(() => s.stop());
    const c = await RpcPeer.connectWs(s.url!, { headers: s.authHeaders() });
    cleanups.push(() => c.drop());
    await c.handshake();
    const { pid } = await c.call('process/start', {
      processId: 'tree',
      argv: ['/bin/sh', '-c', 'sleep 30 & sleep 30'],
      cwd: 'file:///tmp',
      env: {},
      tty: false,
    });
    const tty = await c.call('process/start', {
      processId: 'tty',
      argv: ['sleep', '30'],
      cwd: 'file:///tmp',
      env: {},
      tty: true,
    });
    const exit = new Promise<number | null>((resolve) => s.child.once('exit', resolve));
    s.child.kill('SIGTERM');
    expect(await exit).toBe(0);
    const groupAlive = (groupId: number): boolean => pidAlive(-groupId);
    await waitFor(() => !groupAlive(pid as number) && !pidAlive(tty.pid as number), 'process groups gone');
  });
});
