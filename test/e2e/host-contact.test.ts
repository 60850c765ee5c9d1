// The page and its host, in Chromium: `tether web` (the real host process) stops under an open page,
// which says at once that it lost contact with Tether and shows every link as unknown, never
// "connected"; the host starts again on the same data dir, on the same port and path, and the page
// comes back by itself (no navigation by the test): links connected again and a working shell. A
// host that comes back without the page's login (its remembered address deleted) gets the page to
// say how to log in again, instead of waiting forever.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { reportIfFailed, reportOnFailure, saveScreenshot } from './screens';
import { countInPane, pane, paneText, typeLine } from './terminal-text';
import { startWebApp, type WebApp } from './web-app';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };
/** "At once": the page must notice the drop well within this, not after some long timeout. */
const NOTICE_TIMEOUT_MS = 5_000;

describe('web app: losing and regaining the host', () => {
  const apps: WebApp[] = [];
  let browser: LaunchedBrowser | undefined;
  afterEach(async (ctx) => {
    await reportIfFailed(ctx);
    await browser?.close();
    for (const app of apps.splice(0).reverse()) await app.stop();
  });

  it('says it lost contact, shows links unknown, and recovers on the same address', async () => {
    const first = await startWebApp({ rememberedPort: true });
    apps.push(first);
    browser = await launchBrowser({ disableWebgl: true });
    const { page } = browser;
    let current = first;
    reportOnFailure(page, 'host-contact', () => current);

    await page.goto(first.url);
    const connected = page.getByRole('img', { name: /^Connection: connected/ });
    const unknown = page.getByRole('img', { name: /^Connection: unknown/ });
    const banner = page.getByRole('alert').filter({ hasText: 'Lost contact with Tether' });
    await expect.poll(() => connected.count(), poll).toBeGreaterThan(0);
    await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);
    const address = page.url();
    const indicators = await page.getByRole('img', { name: /^Connection: / }).count();

    await first.stop({ keepDataDir: true });
    await expect.poll(() => banner.count(), { timeout: NOTICE_TIMEOUT_MS, interval: 100 }).toBe(1);
    await expect.poll(() => unknown.count(), poll).toBe(indicators);
    expect(await connected.count()).toBe(0);
    await saveScreenshot(page, 'lost-contact');

    const second = await startWebApp({ dataDir: first.dataDir, rememberedPort: true });
    apps.push(second);
    current = second;
    // Same port and path: the page's own address reaches the new host.
    expect(new URL(second.url).origin + new URL(second.url).pathname).toBe(
      new URL(first.url).origin + new URL(first.url).pathname,
    );
    await expect.poll(() => banner.count(), poll).toBe(0);
    await expect.poll(() => connected.count(), poll).toBeGreaterThan(0);
    expect(await unknown.count()).toBe(0);
    expect(page.url()).toBe(address);

    // The page works again. The new host's run opens a Local shell of its own, beside the tab whose
    // shell ended with the old host (the startup-shell policy); then a new shell from the button
    // answers. Typed once that tab is shown and has a prompt.
    const tabs = page.getByRole('tablist', { name: 'Terminal tabs' }).getByRole('tab');
    await expect.poll(() => tabs.count(), poll).toBe(2);
    await page.getByRole('button', { name: 'New terminal' }).first().click();
    await expect.poll(() => tabs.count(), poll).toBe(3);
    await expect.poll(async () => /[#$]\s*$/.test(await paneText(page)), poll).toBe(true);
    await typeLine(page, 'echo back-$((40+2))');
    await expect.poll(() => countInPane(page, /^back-42$/m), poll).toBeGreaterThan(0);
    await saveScreenshot(page, 'recovered');
  });

  it("says how to log in again when the host comes back without the page's login", async () => {
    const first = await startWebApp({ rememberedPort: true });
    apps.push(first);
    browser = await launchBrowser({ disableWebgl: true });
    const { page } = browser;
    let current = first;
    reportOnFailure(page, 'host-contact-logged-out', () => current);

    await page.goto(first.url);
    await expect
      .poll(() => page.getByRole('img', { name: /^Connection: connected/ }).count(), poll)
      .toBeGreaterThan(0);
    await first.stop({ keepDataDir: true });
    // Same port, but a new path and session: the page's cookie and path are no longer this host's.
    const remembered = path.join(first.dataDir, 'web-address.json');
    const { port } = JSON.parse(readFileSync(remembered, 'utf8')) as { port: number };
    const fresh = () => randomBytes(24).toString('base64url');
    writeFileSync(remembered, JSON.stringify({ version: 1, port, launch: fresh(), session: fresh() }));
    const second = await startWebApp({ dataDir: first.dataDir, rememberedPort: true });
    apps.push(second);
    current = second;
    expect(Number(new URL(second.url).port)).toBe(port);
    expect(new URL(second.url).pathname).not.toBe(new URL(first.url).pathname);
    const banner = page.getByRole('alert').filter({ hasText: 'Lost contact with Tether' });
    await expect.poll(() => banner.textContent(), poll).toContain('Open the URL that tether web printed');
    expect(await page.getByRole('img', { name: /^Connection: connected/ }).count()).toBe(0);
  });
});
