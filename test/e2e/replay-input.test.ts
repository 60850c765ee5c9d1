// A reload replays a shell's output into a fresh xterm, and terminal queries in that history (device
// attributes, cursor position, DEC mode) must not be answered again: those answers would reach the
// shell as typed input (issue 20, defect 2). Live queries after the reload are still answered, and
// so is a query no terminal has shown yet that reaches a new pane through its first replay (a
// program that asks at startup, like fish, and waits for the answer).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { startWebApp, type WebApp } from './web-app';
import { countInPane, pane, paneText, typeLine } from './terminal-text';
import { reportOnFailure, reportIfFailed } from './screens';

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
  afterEach(async (ctx) => {
    await reportIfFailed(ctx);
    await browser?.close();
    await app?.stop();
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it('sends the shell nothing for queries in the replay, and still answers live ones', async () => {
    const { page } = browser;
    reportOnFailure(page, 'replay-input', app);
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

// A login shell whose first output is a device-attributes query it waits for (up to 5 s).
const ASKING_PROFILE = `printf '\\033[c'; IFS= read -rs -d c -t 5 ans; echo "got:\${ans:+yes}"\n`;

describe('web app: a new pane whose program asks the terminal at once', () => {
  let app: WebApp;
  let browser: LaunchedBrowser;
  let scratch: string;

  beforeEach(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'tether-e2e-startup-query-'));
    app = await startWebApp({ homeFiles: { '.bash_profile': ASKING_PROFILE } });
    browser = await launchBrowser({ disableWebgl: true });
  });
  afterEach(async (ctx) => {
    await reportIfFailed(ctx);
    await browser?.close();
    await app?.stop();
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  it('answers the first query of a process once, and not again after a reload', async () => {
    const { page } = browser;
    reportOnFailure(page, 'startup-query', app);
    await page.goto(app.url);
    await expect
      .poll(() => page.getByRole('img', { name: /^Connection: connected/ }).count(), poll)
      .toBeGreaterThan(0);
    await expect.poll(() => countInPane(page, /^got:/m), poll).toBe(1);
    expect(await countInPane(page, /^got:yes$/m)).toBe(1);

    // A pane opened from the UI: its process starts before the pane attaches to it.
    await page.getByRole('button', { name: 'New terminal' }).click();
    await expect
      .poll(() => page.getByRole('tablist', { name: 'Terminal tabs' }).getByRole('tab').count(), poll)
      .toBe(2);
    await expect.poll(() => countInPane(page, /^got:/m), poll).toBe(1);
    expect(await countInPane(page, /^got:yes$/m)).toBe(1);

    // After a reload the query is history: the shell gets no second answer as typed input.
    await page.reload();
    await expect.poll(() => countInPane(page, /^got:yes$/m), poll).toBe(1);
    const recorded = path.join(scratch, 'line.txt');
    const command = `fc -ln -0 > ${recorded}; echo recorded-$((2+2))`;
    await typeLine(page, command);
    await expect.poll(() => countInPane(page, /^recorded-4$/m), poll).toBe(1);
    expect(existsSync(recorded) ? readFileSync(recorded, 'utf8').trim() : '(no file)').toBe(command);
  });
});
