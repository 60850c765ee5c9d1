// Quitting and restarting the app, in Chromium: a remote shell pane keeps printing numbered rows
// while the web host is stopped and started again on the same data dir; the reloaded page shows the
// same pane on the same process, with the rows printed before the restart (read back from the
// server) and the ones after it, each exactly once and in order.
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { startServer, type StartedServer } from '../support/exec-servers';
import { openRemoteShell } from './environment-ui';
import { reportFailure, saveScreenshot } from './screens';
import { countInPane, pane, paneText, typeLine } from './terminal-text';
import { startWebApp, type WebApp } from './web-app';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };
/** Rows the shell prints, one every ROW_INTERVAL_S: the restart happens in their middle. */
const ROWS = 24;
const ROW_INTERVAL_S = 0.4;

describe('web app: restart', () => {
  let server: StartedServer | undefined;
  const apps: WebApp[] = [];
  let browser: LaunchedBrowser | undefined;
  afterEach(async () => {
    await browser?.close();
    for (const app of apps.splice(0).reverse()) await app.stop();
    await server?.stop();
  });

  it('brings the remote pane back on its process with its scrollback, then live, each row once', async () => {
    server = await startServer('tether', 'ws');
    const first = await startWebApp();
    apps.push(first);
    browser = await launchBrowser({ disableWebgl: true });
    const { page } = browser;
    let current = first;
    onTestFailed(() => reportFailure(page, 'app-restart', current));

    await openRemoteShell(page, first.url, server.transportSpec(), UI_TIMEOUT_MS);
    await typeLine(
      page,
      `clear; for i in $(seq 1 ${ROWS}); do echo "row-$i"; sleep ${ROW_INTERVAL_S}; done; echo "done-$((6*7))"`,
    );
    await expect.poll(() => countInPane(page, /^row-3$/m), poll).toBe(1);

    // Quit: the host stops (saving the session), the process keeps printing on the server.
    await first.stop({ keepDataDir: true });
    const second = await startWebApp({ dataDir: first.dataDir });
    apps.push(second);
    current = second;
    await page.goto(second.url);
    await page.getByRole('button', { name: 'Environment Lab box' }).click();
    await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);
    await expect.poll(() => countInPane(page, /^done-42$/m), poll).toBe(1);
    await saveScreenshot(page, 'after-restart');

    const text = await paneText(page);
    const rows = [...text.matchAll(/^row-(\d+)$/gm)].map((m) => Number(m[1]));
    expect(rows).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
    expect(text).not.toMatch(/output lost/);
    // Only the remote pane: the restarted app did not open a first-launch Local shell over it.
    expect(await page.locator('section.pane').count()).toBe(1);
  });
});
