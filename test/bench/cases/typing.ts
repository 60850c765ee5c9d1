// Case: typing on a slow link (issue #21). In web mode in Chromium, a WebSocket environment behind
// the fault proxy at 100 ms RTT; keystroke → glyph at its shell prompt with predictive echo on
// ('auto'): each key's keydown until xterm's DOM rows show it, timed in the page. The first key of
// each line is not drawn before its echo (it could be a password's), so it is the link's own figure.
import type { Page } from 'playwright-core';
import type { BenchCase, BenchContext } from '../lib/bench-case';
import { launchChromium } from '../lib/browser';
import { sleep, withTimeout } from '../lib/child';
import type { CaseRecorder } from '../lib/results';
import { quantile } from '../lib/stats';
import { startWebApp } from '../lib/web-app';
import { startProxiedServer } from '../../support/proxied-server';
import { pressUntilShown } from '../../support/key-timing';

/** Each way: a 100 ms round trip. */
const ONE_WAY_MS = 50;
const PROMPT = 'TY> ';
/** Letters typed per line (each line then erased with Ctrl-U): distinct, so each shows as it lands. */
const LETTERS = 'abcdefghij';

/** Waits until `check` holds on the page, polling; throws after `timeoutMs` naming `what`. */
async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  await withTimeout(
    (async () => {
      while (!(await check())) await sleep(20);
    })(),
    timeoutMs,
    what,
  );
}

function rowsText(page: Page): Promise<string> {
  return page.evaluate(() =>
    Array.from(document.querySelector('section.pane .xterm-rows')?.children ?? [])
      .map((row) => (row.textContent ?? '').trimEnd())
      .join('\n'),
  );
}

async function run(context: BenchContext, recorder: CaseRecorder): Promise<void> {
  const { lines, keysPerLine, stepTimeoutMs } = context.config.typing;
  const line = LETTERS.slice(0, keysPerLine);
  recorder.setup(
    `Web mode in headless Chromium (DOM renderer), a Tether ws server behind the fault proxy at ${ONE_WAY_MS} ms ` +
      `each way; at its shell prompt ${lines} line(s) of \`${line}\`, one key at a time, each once the one before ` +
      'was echoed (an idle link), then Ctrl-U. Keydown until the DOM rows show the key, timed in the page. ' +
      'Predictive echo is on (auto); the first key of each line is checked, not drawn, so it shows the link.',
  );
  const remote = await startProxiedServer('tether');
  // Slow from the start, so the link's first RTT probe already measures it.
  remote.proxy.setLatency(ONE_WAY_MS);
  const web = await startWebApp();
  recorder.command(web.commandLine);
  const browser = await launchChromium(['--disable-webgl', '--disable-3d-apis']);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(web.url, { waitUntil: 'load' });
    await page.locator('.xterm').first().waitFor({ timeout: stepTimeoutMs });
    await page.getByRole('button', { name: 'Add environment' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add environment' });
    await dialog.getByLabel('Name').fill('Slow box');
    await dialog.getByLabel('Connect via').selectOption('ws');
    const target = remote.server.transportSpec(remote.proxy.url());
    await dialog.getByLabel('URL').fill(target.url);
    if (target.token !== undefined) await dialog.getByLabel('Token').fill(target.token);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    const indicator = page
      .getByRole('button', { name: 'Environment Slow box' })
      .getByRole('img', { name: /^Connection:/ });
    await until(async () => (await rowsText(page)).trim().length > 0, stepTimeoutMs, 'the shell');
    await page.locator('section.pane .xterm-screen').click();
    // The prompt as printf octal escapes, so the typed command never reads as the prompt.
    await page.keyboard.type(`PS1="$(printf '\\124\\131\\076 ')"; clear`);
    await page.keyboard.press('Enter');
    await until(async () => (await rowsText(page)).startsWith(PROMPT.trimEnd()), stepTimeoutMs, 'prompt');
    // 'auto' predicts once the link has measured a round trip over 30 ms (one probe every 2 s).
    await until(
      async () => /, (9\d|\d{3,}) ms$/.test((await indicator.getAttribute('aria-label')) ?? ''),
      stepTimeoutMs,
      'the link to measure 100 ms',
    );

    const predicted: number[] = [];
    const first: number[] = [];
    for (let l = 0; l < lines; l += 1) {
      let typed = '';
      for (const key of line) {
        typed += key;
        const ms = await pressUntilShown(page, key, `${PROMPT}${typed}`);
        (typed.length === 1 ? first : predicted).push(ms);
        // Echoed (the underline gone) before the next key: each key meets an idle link.
        await until(
          async () => (await page.locator('.predicted-echo').count()) === 0,
          stepTimeoutMs,
          'the echo',
        );
        await sleep(ONE_WAY_MS * 2);
      }
      await page.keyboard.press('Control+U');
      await until(
        async () => (await rowsText(page)).trimEnd().endsWith(PROMPT.trimEnd()),
        stepTimeoutMs,
        'Ctrl-U',
      );
    }
    recorder.ok('predicted key → glyph at 100 ms RTT', 'ms', predicted, {
      'p90 ms': [quantile(predicted, 0.9)],
      // Keys that waited for their echo after all (the machine stalled, or a prediction was dropped).
      'over the RTT': [predicted.filter((ms) => ms >= 2 * ONE_WAY_MS).length],
    });
    recorder.ok('first key of a line (not predicted) at 100 ms RTT', 'ms', first);
    context.log(
      `  predicted p50 ${recorder.median('predicted key → glyph at 100 ms RTT')?.toFixed(1)} ms, ` +
        `first key p50 ${recorder.median('first key of a line (not predicted) at 100 ms RTT')?.toFixed(1)} ms`,
    );
  } finally {
    await browser.close();
    await web.stop();
    await remote.stop();
  }
  recorder.goal(
    'Printable key → glyph at 100 ms RTT p50 ≤ 20 ms (predicted)',
    recorder.median('predicted key → glyph at 100 ms RTT'),
    (v) => v <= 20,
    (v) => `${v.toFixed(1)} ms`,
  );
}

export const typingCase: BenchCase = {
  id: 'typing',
  title: 'Typing on a slow link (web mode in Chromium)',
  run,
};
