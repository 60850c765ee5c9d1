// An SSH environment through the UI in Chromium (web mode), against a real sshd behind a fault
// proxy: picked from the app's ~/.ssh/config, the unknown host key trusted in the app's dialog, the
// install watched as a progress bar, a shell run, the link cut and resumed with output and input
// exactly once; then its files and processes work like any other environment's.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { SshTestRig, type SshdHost } from '../support/sshd';
import { saveScreenshot, reportOnFailure, reportIfFailed } from './screens';
import { countInPane, focusTerminal, pane, paneText, typeLine } from './terminal-text';
import { startWebApp, type WebApp } from './web-app';

const UI_TIMEOUT_MS = 60_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };
/** Upload rate while installing: the ~270 KiB bundle then takes seconds, so even a loaded machine sees the bar. */
const INSTALL_BYTES_PER_SECOND = 60_000;
/** How long the link stays cut: long enough for the loop to print several lines meanwhile. */
const CUT_MS = 3_000;

let rig: SshTestRig;
let host: SshdHost;
let app: WebApp;
let browser: LaunchedBrowser;

beforeEach(async () => {
  rig = new SshTestRig();
  host = await rig.startHost({ alias: 'lab-ssh', proxied: true });
  writeFileSync(path.join(host.home, 'from-the-host.txt'), 'hello\n');
  app = await startWebApp({ homeFiles: { '.ssh/config': readFileSync(rig.configFile, 'utf8') } });
  browser = await launchBrowser({ disableWebgl: true });
});
afterEach(async (ctx) => {
  await reportIfFailed(ctx);
  await browser?.close();
  await app?.stop();
  await rig?.close();
});

describe('web app: SSH environment', () => {
  it('adds a host from the picker, trusts its key, installs, and resumes a shell across a cut', async () => {
    const { page } = browser;
    const proxy = host.proxy!;
    reportOnFailure(page, 'ssh-environment', app);
    await page.goto(app.url);
    await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);

    await page.getByRole('button', { name: 'Add environment' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add environment' });
    await dialog.getByLabel('Connect via').selectOption('ssh');
    const picker = dialog.getByLabel('From ~/.ssh/config');
    await expect
      .poll(() => picker.locator('option', { hasText: 'lab-ssh — root@127.0.0.1' }).count(), poll)
      .toBe(1);
    await picker.selectOption('lab-ssh');
    expect(await dialog.getByLabel('Name').inputValue()).toBe('lab-ssh');
    await saveScreenshot(page, 'ssh-add-environment');
    proxy.throttle(INSTALL_BYTES_PER_SECOND, 'upstream');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();

    const question = page.getByRole('dialog', { name: 'lab-ssh: unknown host key' });
    await expect.poll(() => question.getByLabel('ssh says').textContent(), poll).toMatch(/SHA256:/);
    await saveScreenshot(page, 'ssh-host-key');
    await question.getByRole('button', { name: 'Trust and connect' }).click();

    const indicator = page
      .getByRole('button', { name: 'Environment lab-ssh' })
      .getByRole('img', { name: /^Connection:/ });
    const bar = page.getByRole('progressbar', { name: 'Install progress' });
    await expect.poll(() => bar.count(), poll).toBe(1);
    await expect
      .poll(() => indicator.getAttribute('aria-label'), poll)
      .toMatch(/installing the server, .* of /);
    // The bar counts what ssh took, and the socket buffers on the way to the throttled proxy take
    // most of the bundle in one write: it may stand at 0 or already at the whole while the upload
    // still crawls through the proxy, so only its total is certain here: the bundle's size.
    expect(Number(await bar.getAttribute('max'))).toBeGreaterThan(100_000);
    await saveScreenshot(page, 'ssh-installing');
    await expect.poll(() => indicator.getAttribute('aria-label'), poll).toMatch(/^Connection: connected/);
    proxy.throttle(null);

    // Once connected, the new environment opens a shell by itself, as Local does at first launch.
    await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);
    expect(await page.getByRole('button', { name: 'Open a shell' }).count()).toBe(0);
    await typeLine(page, 'echo "home=$HOME"');
    await expect.poll(() => countInPane(page, new RegExp(`^home=${host.home}$`, 'm')), poll).toBe(1);

    // Output during the cut: a loop keeps printing on the host while the link is down.
    await typeLine(page, 'clear; for i in 1 2 3 4 5 6 7 8 9; do echo "n=$i"; sleep 0.6; done');
    await expect.poll(() => countInPane(page, /n=1/), poll).toBe(1);
    proxy.refuseNew(true);
    proxy.cutAll();
    await expect.poll(() => indicator.getAttribute('aria-label'), poll).toMatch(/^Connection: reconnecting/);
    await focusTerminal(page);
    await page.keyboard.type('echo typed$((20+1))');
    await page.keyboard.press('Enter');
    await saveScreenshot(page, 'ssh-reconnecting');
    await new Promise((resolve) => setTimeout(resolve, CUT_MS));
    proxy.refuseNew(false);
    proxy.restore();

    await expect.poll(() => indicator.getAttribute('aria-label'), poll).toMatch(/^Connection: connected/);
    await expect.poll(() => countInPane(page, /n=9/), poll).toBe(1);
    await expect.poll(() => countInPane(page, /typed21/), poll).toBe(1);
    const text = await paneText(page);
    for (let i = 1; i <= 9; i += 1) expect([...text.matchAll(new RegExp(`n=${i}\\b`, 'g'))]).toHaveLength(1);
    expect(text.indexOf('n=1')).toBeLessThan(text.indexOf('n=9'));

    // Like any other environment: its processes and its files.
    await page.getByRole('tab', { name: 'Processes' }).click();
    await expect.poll(() => page.getByRole('row', { name: /bash|sh/ }).count(), poll).toBeGreaterThan(0);
    await page.getByRole('tab', { name: 'Files' }).click();
    const pathBar = page.getByRole('textbox', { name: 'Path' });
    await expect.poll(() => pathBar.inputValue(), poll).not.toBe('');
    await pathBar.fill(host.home);
    await pathBar.press('Enter');
    await expect.poll(() => page.getByText('from-the-host.txt').count(), poll).toBe(1);
    await saveScreenshot(page, 'ssh-files');
  });
});
