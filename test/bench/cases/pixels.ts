// Case 5, pixels: in web mode in Chromium, bytes/s from a process to the app's xterm pane (counted
// by the renderer's own flow-control acks, sent after xterm's write callback) against xterm.js fed
// the same bytes directly in the same browser, in a terminal of the pane's size, font and renderer;
// then, in the pane, Ctrl-C during a `yes` flood until the prompt is back, and idle keystroke → echo
// reaching the page.
import path from 'node:path';
import type { Page, WebSocket as PageSocket } from 'playwright-core';
import type { BenchCase, BenchContext } from '../lib/bench-case';
import { launchChromium } from '../lib/browser';
import { sleep, withTimeout } from '../lib/child';
import { ansiBlockAsPty, ptyOutputBytes, writeAnsiBlock, writerArgv } from '../lib/payload';
import type { CaseRecorder } from '../lib/results';
import { elapsedMs, mbPerSecond } from '../lib/stats';
import { startWebApp } from '../lib/web-app';
import { startXtermPage, type CeilingTerminal } from '../lib/xterm-page';
import { DEFAULT_SETTINGS, decodeWebMessage } from '../../../shared/ipc';
import { FALLBACK_FONT_FAMILY } from '../../../renderer/terminals/xterm/terminal-options';

/**
 * The prompt the bench sets, typed as printf octal escapes so the typed command itself never matches
 * it; plain POSIX, so it works whichever login shell the pane runs (bash, dash, zsh).
 */
const PROMPT = 'TB> ';
const SET_PROMPT = 'PS1="$(printf \'\\124\\102\\076 \')"';

/** Watches the page's bridge socket: output text it receives and output bytes it acknowledges. */
class PaneWatch {
  acked = 0;
  /** The pane's size, as last sent to its process. */
  size: { cols: number; rows: number } | null = null;
  private waiters: Array<{ text: string; check: (text: string) => boolean; resolve: () => void }> = [];

  attach(socket: PageSocket): void {
    socket.on('framesent', ({ payload }) => {
      const message = decodeWebMessage(typeof payload === 'string' ? payload : new Uint8Array(payload)) as {
        name?: string;
        input?: { deltaBytes?: number; cols?: number; rows?: number };
      };
      if (message.name === 'processes.ack') this.acked += message.input?.deltaBytes ?? 0;
      const { cols, rows } = message.input ?? {};
      if (message.name === 'processes.resize' && cols && rows) this.size = { cols, rows };
    });
    socket.on('framereceived', ({ payload }) => {
      const message = decodeWebMessage(typeof payload === 'string' ? payload : new Uint8Array(payload)) as {
        name?: string;
        payload?: unknown;
      };
      if (message.name !== 'processes.events') return;
      for (const batch of message.payload as Array<{ events: Array<{ kind: string; data?: Uint8Array }> }>) {
        for (const event of batch.events) {
          if (event.kind !== 'output' || !event.data) continue;
          const text = Buffer.from(event.data).toString('latin1');
          this.waiters = this.waiters.filter((w) => {
            w.text = (w.text + text).slice(-4_096);
            if (!w.check(w.text)) return true;
            w.resolve();
            return false;
          });
        }
      }
    });
  }

  /** Resolves once output received from now on satisfies `check`. */
  output(check: (text: string) => boolean, timeoutMs: number, what: string): Promise<void> {
    return withTimeout(
      new Promise<void>((resolve) => this.waiters.push({ text: '', check, resolve })),
      timeoutMs,
      what,
    );
  }

  async acks(atLeast: number, timeoutMs: number): Promise<void> {
    await withTimeout(
      (async () => {
        while (this.acked < atLeast) await sleep(2);
      })(),
      timeoutMs,
      'acknowledged output',
    );
  }
}

async function typeLine(page: Page, watch: PaneWatch, line: string, timeoutMs: number): Promise<void> {
  const prompt = watch.output((t) => t.includes(PROMPT), timeoutMs, 'prompt');
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  await prompt;
}

async function run(context: BenchContext, recorder: CaseRecorder): Promise<void> {
  const { bytes, runs, warmups, ctrlCRuns, floodMs, keystrokeSamples, stepTimeoutMs } = context.config.pixels;
  const ansiFile = path.join(context.workDir, 'pixels-ansi.txt');
  writeAnsiBlock(ansiFile);
  const expected = ptyOutputBytes('ansi', bytes);
  const writer = writerArgv('ansi', bytes, ansiFile)
    .map((arg, i) => (i === 2 ? `'${arg}'` : arg))
    .join(' ');
  recorder.setup(
    `${(bytes / 1048576).toFixed(2)} MiB of ANSI text (${expected} bytes after the pty's CRLF) per run, ${runs} run(s) ` +
      `after ${warmups} warm-up(s), headless Chromium. App: typed into the login-shell pane of \`tether web\`; done when the ` +
      "renderer's flow-control acks (sent after xterm's write callback) cover the output. Ceiling: the same bytes " +
      'written into @xterm/xterm directly, in 64 KiB chunks awaiting each write callback, in a terminal with the ' +
      `pane's columns, rows, font and renderer. Ctrl-C: ${ctrlCRuns} run(s), ` +
      `\`yes\` flooding ${floodMs} ms, then Ctrl-C until the prompt's bytes reach the page. Keystroke: ` +
      `${keystrokeSamples} samples, key press until its echo reaches the page (xterm draws it on the next frame).`,
  );
  recorder.command(writer);
  const browser = await launchChromium();
  const pageServer = await startXtermPage();
  const web = await startWebApp();
  recorder.command(web.commandLine);
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const watch = new PaneWatch();
    page.on('websocket', (socket) => watch.attach(socket));
    await page.goto(web.url, { waitUntil: 'load' });
    await page.locator('.xterm').first().waitFor({ timeout: stepTimeoutMs });
    await page.locator('.xterm').first().click();
    await typeLine(page, watch, SET_PROMPT, stepTimeoutMs);
    const appRenderer = (await page.locator('.xterm canvas').count()) > 0 ? 'webgl' : 'dom';
    if (!watch.size) throw new Error('the app pane never reported its size (processes.resize)');

    const ceilingPage = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await ceilingPage.goto(pageServer.url, { waitUntil: 'load' });
    const terminal: CeilingTerminal = {
      ...watch.size,
      fontSize: DEFAULT_SETTINGS.fontSize,
      fontFamily: FALLBACK_FONT_FAMILY,
      scrollback: DEFAULT_SETTINGS.scrollback,
      webgl: appRenderer === 'webgl',
    };
    const ceilingRenderer = await ceilingPage.evaluate(
      (t) => (globalThis as unknown as { setup: (t: CeilingTerminal) => string }).setup(t),
      terminal,
    );
    const block = ansiBlockAsPty().toString('base64');
    const feed = (total: number): Promise<number> =>
      ceilingPage.evaluate(
        ([b, t]) => (globalThis as unknown as { feed: (b: string, t: number) => Promise<number> }).feed(b, t),
        [block, total] as const,
      );
    recorder.note(
      `Renderer picked: app pane ${appRenderer}, ceiling page ${ceilingRenderer}; both ` +
        `${terminal.cols}×${terminal.rows} at ${terminal.fontSize}px.`,
    );

    const app: number[] = [];
    const ceiling: number[] = [];
    for (let i = -warmups; i < runs; i += 1) {
      const ms = await withTimeout(feed(expected), stepTimeoutMs, 'ceiling feed');
      const before = watch.acked;
      const prompt = watch.output((t) => t.includes(PROMPT), stepTimeoutMs, 'prompt after output');
      await page.keyboard.type(writer);
      const start = process.hrtime.bigint();
      await page.keyboard.press('Enter');
      await watch.acks(before + expected, stepTimeoutMs);
      const appMs = elapsedMs(start);
      await prompt;
      if (i >= 0) {
        ceiling.push(mbPerSecond(expected, ms));
        app.push(mbPerSecond(expected, appMs));
      }
    }
    recorder.ok('xterm.js fed directly (ceiling)', 'MB/s', ceiling);
    recorder.ok('app pane (web mode)', 'MB/s', app);

    const ctrlC: number[] = [];
    for (let i = 0; i < ctrlCRuns; i += 1) {
      await page.keyboard.type('yes');
      await page.keyboard.press('Enter');
      await sleep(floodMs);
      const prompt = watch.output((t) => t.includes(PROMPT), stepTimeoutMs, 'prompt after Ctrl-C');
      const start = process.hrtime.bigint();
      await page.keyboard.press('Control+C');
      await prompt;
      ctrlC.push(elapsedMs(start));
    }
    recorder.ok('Ctrl-C during yes → prompt', 'ms', ctrlC);

    const keys: number[] = [];
    for (let i = 0; i < keystrokeSamples; i += 1) {
      const echo = watch.output((t) => t.includes('x'), stepTimeoutMs, 'keystroke echo');
      const start = process.hrtime.bigint();
      await page.keyboard.press('x');
      await echo;
      keys.push(elapsedMs(start));
      const erased = watch.output((t) => t.includes('\b'), stepTimeoutMs, 'backspace echo');
      await page.keyboard.press('Backspace');
      await erased;
    }
    recorder.ok('idle keystroke → echo at the page', 'ms', keys);
    context.log(
      `  app ${app.map((v) => v.toFixed(1)).join(', ')} MB/s; ceiling ${ceiling.map((v) => v.toFixed(1)).join(', ')} MB/s`,
    );
  } finally {
    await browser.close();
    await pageServer.close();
    await web.stop();
  }
  const share = recorder.ratio(
    'app pane / xterm.js ceiling',
    'app pane (web mode)',
    'xterm.js fed directly (ceiling)',
  );
  recorder.goal(
    'App pane ≥ 0.75 of the xterm.js ceiling',
    share,
    (v) => v >= 0.75,
    (v) => `${v.toFixed(2)}×`,
  );
  const ms = (v: number): string => `${v.toFixed(1)} ms`;
  recorder.goal(
    'Ctrl-C during a yes flood → prompt ≤ 300 ms',
    recorder.median('Ctrl-C during yes → prompt'),
    (v) => v <= 300,
    ms,
  );
  recorder.goal(
    'Idle keystroke → glyph p50 ≤ 20 ms',
    recorder.median('idle keystroke → echo at the page'),
    (v) => v <= 20,
    ms,
  );
}

export const pixelsCase: BenchCase = { id: 'pixels', title: 'Pixels (web mode in Chromium)', run };
