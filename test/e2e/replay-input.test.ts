// A reload replays a shell's output into a fresh xterm, and terminal queries in that history (device
// attributes, cursor position, DEC mode) must not be answered again: those answers would reach the
// shell as typed input (issue 20, defect 2). Live queries after the reload are still answered.
import { afterEach, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { startWebApp, type WebApp } from './web-app';
import { countInPane, pane, paneText, typeLine } from './terminal-text';
import { reportFailure } from './screens';

/** Generous bound for UI conditions on a shared, loaded machine. */
const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };

// Asks the terminal three questions and reads each answer back (up to its final character), so the
// shell's own input stays clean while the queries are live; prints a line once all three came.
const QUERY_COMMAND = [
  "printf '\\033[c'; read -rs -d c da",
  "printf '\\033[6n'; read -rs -d R cpr",
  "printf '\\033[?2004$p'; read -rs -d y mode",
  '[ -n "$da" ] && [ -n "$cpr" ] && [ -n "$mode" ] && echo answered-ok',
].join('; ');

describe('web app: replayed output after a reload', () => {
  let app: WebApp;
  let browser: LaunchedBrowser;
  let scratch: string;

  beforeEach(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'tether-e2e-replay-'));
    app = await startWebApp();
    browser = await launchBrowser({ disableWebgl: true });
  });
  afterEach(async () => {
    await browser?.close();
    await app?.stop();
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it('sends the shell nothing for queries in the replay, and still answers live ones', async () => {
    const { page } = browser;
    onTestFailed(() => reportFailure(page, 'replay-input', app));
    await page.goto(app.url);
    await expect
      .poll(() => page.getByRole('img', { name: /^Connection: connected/ }).count(), poll)
      .toBeGreaterThan(0);
    await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);

    await typeLine(page, QUERY_COMMAND);
    await expect.poll(() => countInPane(page, /^answered-ok$/m), poll).toBe(1);

    await page.reload();
    await expect.poll(() => countInPane(page, /^answered-ok$/m), poll).toBe(1);
    // The shell records the next command line exactly as it received it: any answer produced by
    // the replay would have reached it first (same input channel, in order) and prefix the line.
    const recorded = path.join(scratch, 'line.txt');
    const command = `fc -ln -0 > ${recorded}; echo recorded-$((2+2))`;
    await typeLine(page, command);
    await expect.poll(() => countInPane(page, /^recorded-4$/m), poll).toBe(1);
    expect(existsSync(recorded) ? readFileSync(recorded, 'utf8').trim() : '(no file)').toBe(command);
    expect(await paneText(page)).not.toContain('command not found');

    // Queries made now are answered as before.
    await typeLine(page, QUERY_COMMAND);
    await expect.poll(() => countInPane(page, /^answered-ok$/m), poll).toBe(2);
  });
});
