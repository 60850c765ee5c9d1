// A link a program prints, clicked in the web app in Chromium: the app asks first (full URL and
// host), and Open opens it in a new tab of the browser, with no opener; the web host runs no
// program for it (a recording xdg-open is first on its PATH and must stay unused).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { startWebApp, type WebApp } from './web-app';
import { pane, typeLine } from './terminal-text';
import { reportOnFailure, reportIfFailed } from './screens';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };

describe('web app: links in terminal output', () => {
  let app: WebApp;
  let browser: LaunchedBrowser;
  let target: http.Server;
  let requested: string[];
  let bin: string;
  const savedPath = process.env.PATH;

  beforeEach(async () => {
    requested = [];
    target = http.createServer((req, res) => {
      requested.push(req.url ?? '');
      res.end('<title>link target</title>');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    bin = mkdtempSync(path.join(os.tmpdir(), 'tether-e2e-bin-'));
    writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" > '${bin}/xdg-open.ran'\n`);
    chmodSync(path.join(bin, 'xdg-open'), 0o755);
    process.env.PATH = `${bin}${path.delimiter}${savedPath ?? ''}`;
    app = await startWebApp();
    process.env.PATH = savedPath;
    browser = await launchBrowser({ disableWebgl: true });
  });
  afterEach(async (ctx) => {
    await reportIfFailed(ctx);
    process.env.PATH = savedPath;
    await browser?.close();
    await app?.stop();
    await new Promise((resolve) => target.close(resolve));
    rmSync(bin, { recursive: true, force: true });
  });

  it('asks, then opens the link in a new tab instead of on the host', async () => {
    const { page, context } = browser;
    reportOnFailure(page, 'terminal-links', app);
    await page.goto(app.url);
    await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);

    const { port } = target.address() as AddressInfo;
    const link = `http://127.0.0.1:${port}/clicked?a=1&calc`;
    // The command line holds no whole URL (the scheme comes as an argument), so only the output does.
    await typeLine(page, `printf '%s//127.0.0.1:${port}/clicked?a=1&calc\\n' http:`);
    const row = pane(page).locator('.xterm-rows > div', { hasText: /^http:\/\/127\.0\.0\.1/ });
    await expect.poll(() => row.count(), poll).toBe(1);

    const box = (await row.boundingBox())!;
    const at = { x: box.x + 40, y: box.y + box.height / 2 };
    await page.mouse.move(at.x - 10, at.y);
    await page.mouse.move(at.x, at.y);
    await page.mouse.click(at.x, at.y);
    const dialog = page.getByRole('dialog', { name: 'Open this link?' });
    await expect.poll(() => dialog.count(), poll).toBe(1);
    expect(await dialog.textContent()).toContain(link);
    expect(await dialog.getByText(`127.0.0.1:${port}`, { exact: true }).count()).toBe(1);

    const tab = context.waitForEvent('page', { timeout: UI_TIMEOUT_MS });
    await dialog.getByRole('button', { name: 'Open', exact: true }).click();
    const opened = await tab;
    await expect
      .poll(() => requested.filter((u) => u.startsWith('/clicked')), poll)
      .toEqual(['/clicked?a=1&calc']);
    expect(opened.url()).toBe(link);
    expect(await opened.evaluate(() => window.opener)).toBeNull();
    expect(existsSync(path.join(bin, 'xdg-open.ran'))).toBe(false);
  });
});
