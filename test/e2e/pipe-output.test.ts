// A command started without a tty (Processes → Start a command, "Terminal (tty)" off), shown in a
// pane in Chromium: its stdout and stderr come through pipes, with no line discipline to turn `\n`
// into `\r\n`, yet every line starts at column 0 (no staircase), and stderr is drawn in another
// colour than stdout.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { startWebApp, type WebApp } from './web-app';
import { reportOnFailure, reportIfFailed } from './screens';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };

describe('web app: a process without a tty in a pane', () => {
  let app: WebApp;
  let browser: LaunchedBrowser;

  beforeEach(async () => {
    app = await startWebApp();
    browser = await launchBrowser({ disableWebgl: true });
  });
  afterEach(async (ctx) => {
    await reportIfFailed(ctx);
    await browser?.close();
    await app?.stop();
  });

  it('prints its lines straight and stderr in a colour of its own', async () => {
    const { page } = browser;
    reportOnFailure(page, 'pipe-output', app);
    await page.goto(app.url);
    // The local environment is up once its first shell shows.
    await expect.poll(() => page.locator('section.pane .xterm-rows').count(), poll).toBe(1);
    await page.getByRole('tab', { name: 'Processes' }).click();
    await page.getByLabel('Terminal (tty)').uncheck();
    await page
      .getByLabel('Command', { exact: true })
      .fill(`printf 'out-a\\nout-b\\nout-c\\n'; sleep 0.3; printf 'err-d\\n' >&2`);
    await page.getByRole('button', { name: 'Start', exact: true }).click();

    const rows = page
      .locator('section.pane .xterm-rows')
      .filter({ hasText: 'err-d' })
      .filter({ hasText: 'exited' });
    await expect.poll(() => rows.count(), poll).toBe(1);
    // Each row as shown, leading blanks kept: a staircase would show "     out-b".
    const lines = await rows.evaluate((el) =>
      Array.from(el.children).map((row) => (row.textContent ?? '').replace(/\s+$/, '')),
    );
    expect(lines.slice(0, 4)).toEqual(['out-a', 'out-b', 'out-c', 'err-d']);

    // The colour each row's text is drawn in, as Chromium computed it.
    const colours = await rows.evaluate((el) =>
      Array.from(el.children)
        .slice(0, 4)
        .map((row) => getComputedStyle(row.querySelector('span') ?? row).color),
    );
    expect(colours[1]).toBe(colours[0]);
    expect(colours[2]).toBe(colours[0]);
    expect(colours[3]).not.toBe(colours[0]);
  });
});
