// Logging in to web mode as Chromium does it: the printed URL is traded for a cookie and leaves the
// address bar, the app's WebSocket carries no token, and the cookie never reaches another web server
// on 127.0.0.1 (cookies ignore ports, so only its per-launch path keeps it to this host). And the
// browser opener's private redirect file, followed from file://, logs the browser in.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { startWebApp, type WebApp } from './web-app';
import { reportOnFailure, reportIfFailed } from './screens';

/** Generous bound for UI conditions on a shared, loaded machine. */
const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };

describe('web app: login', () => {
  let app: WebApp;
  let browser: LaunchedBrowser;
  let other: http.Server;
  /** The Cookie header of every request the other local server got, by path. */
  const cookiesSeen: Array<{ path: string; cookie: string }> = [];

  beforeEach(async () => {
    app = await startWebApp();
    browser = await launchBrowser({ disableWebgl: true });
    other = http.createServer((request, response) => {
      cookiesSeen.push({ path: request.url ?? '', cookie: request.headers.cookie ?? '' });
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('another local server\n');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async (ctx) => {
    await reportIfFailed(ctx);
    await browser?.close();
    await app?.stop();
    await new Promise((resolve) => other?.close(resolve));
  });

  it('keeps the token out of the address bar, the socket URL and other local servers', async () => {
    const { page, context } = browser;
    reportOnFailure(page, 'web-login', app);
    const printed = new URL(app.url);
    const token = printed.searchParams.get('token')!;
    const socketUrls: string[] = [];
    page.on('websocket', (ws) => socketUrls.push(ws.url()));

    await page.goto(app.url);
    await expect
      .poll(() => page.getByRole('img', { name: /^Connection: connected/ }).count(), poll)
      .toBeGreaterThan(0);
    expect(page.url()).toBe(`${printed.origin}${printed.pathname}`);
    expect(socketUrls.length).toBeGreaterThan(0);
    for (const url of socketUrls) expect(url).not.toContain(token);

    // The browser does hold the login cookie, so what follows is not vacuous. Its value is the
    // remembered session, never the printed token.
    const held = (await context.cookies()).filter((c) => c.name.startsWith('tether_'));
    expect(held).toHaveLength(1);
    expect(held[0]!.path).toBe(printed.pathname);
    const session = held[0]!.value;
    expect(session).not.toBe(token);

    const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    for (const where of ['/', '/ipc', '/download/x', '/assets/app.js']) {
      await page.goto(`${otherOrigin}${where}`);
    }
    expect(cookiesSeen.map((seen) => seen.path)).toEqual(
      expect.arrayContaining(['/', '/ipc', '/download/x', '/assets/app.js']),
    );
    for (const seen of cookiesSeen) {
      expect(seen.cookie, seen.path).not.toContain(token);
      expect(seen.cookie, seen.path).not.toContain(session);
    }
  });

  it('logs in from the opener’s redirect file, and the app connects', async () => {
    // A stand-in for xdg-open that records its argument, so the browser can open what it was given.
    const bin = mkdtempSync(path.join(os.tmpdir(), 'tether-e2e-opener-'));
    const record = path.join(bin, 'opened.txt');
    writeFileSync(
      path.join(bin, 'xdg-open'),
      `#!/bin/sh\nprintf '%s' "$1" > '${record}.tmp'\nmv '${record}.tmp' '${record}'\n`,
    );
    chmodSync(path.join(bin, 'xdg-open'), 0o755);
    try {
      await app.stop();
      app = await startWebApp({ opener: bin });
      const { page } = browser;
      reportOnFailure(page, 'web-login-opener', app);
      await expect.poll(() => existsSync(record), poll).toBe(true);
      const opened = readFileSync(record, 'utf8');
      expect(opened).toMatch(/^file:\/\//);
      await page.goto(opened);
      const printed = new URL(app.url);
      await expect.poll(() => page.url(), poll).toBe(`${printed.origin}${printed.pathname}`);
      await expect
        .poll(() => page.getByRole('img', { name: /^Connection: connected/ }).count(), poll)
        .toBeGreaterThan(0);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
