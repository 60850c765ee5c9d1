// Case 5, pixels: in web mode in Chromium, bytes/s from a process to the app's xterm pane (counted
// by the renderer's own flow-control acks, sent after xterm's write callback) against xterm.js fed
// the same bytes directly in the same browser, in a terminal of the pane's size, font and renderer;
// then, in the pane, Ctrl-C during a `yes` flood until the prompt is back, and idle keystrokes timed
// stage by stage in the page up to the glyph, against xterm.js typing into a bare echo socket in
// the same browser; the keystrokes again in a Chromium with the desktop app's switches.
import path from 'node:path';
import type { Browser, Page, WebSocket as PageSocket } from 'playwright-core';
import type { BenchCase, BenchContext } from '../lib/bench-case';
import { launchChromium } from '../lib/browser';
import { sleep, withTimeout } from '../lib/child';
import { ansiBlockAsPty, ptyOutputBytes, writeAnsiBlock, writerArgv } from '../lib/payload';
import type { CaseRecorder } from '../lib/results';
import { elapsedMs, mbPerSecond, quantile } from '../lib/stats';
import { BridgeClient, startWebApp, type WebApp } from '../lib/web-app';
import { startXtermPage, type CeilingTerminal, type XtermPageServer } from '../lib/xterm-page';
import { DESKTOP_RENDERER_ARGS } from '../../../electron/main/renderer-switches';
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

/** The keystroke path as the page sees it, stage by stage (ms, the page's clock). */
interface KeyStages {
  /** The key event's time stamp (Chromium took the key) → the page's keydown listener runs. */
  toPage: number;
  /** keydown → the first binary message leaves on the page's socket (xterm's onData, IPC encode). */
  toSend: number;
  /** …→ the first binary message back (app: web host, AppService, client, server, pty and back). */
  roundTrip: number;
  /** …→ xterm's rows change (decode, OutputFlow, xterm's parse, and its next animation frame). */
  toGlyph: number;
  /** The key event's time stamp → the glyph. */
  total: number;
  /** 1 when the echo was in the page before the first frame after the key began, else 0. */
  beforeFirstFrame: number;
}

/**
 * Installed before a page loads: stamps the key (its event's timeStamp) and keydown (capture phase,
 * before xterm), the first animation frame after it, the first binary message sent after it (typed
 * bytes go binary, in the app as in the reference page), the first binary message received after
 * that (the echo), and the first change of xterm's rows after that. The glyph is read off the DOM,
 * so the page must use xterm's DOM renderer (it is drawn in xterm's animation frame callback).
 */
const KEY_STAGE_PROBE = `(() => {
  let key = 0, down = 0, frame = 0, sent = 0, received = 0, early = 0, glyph = 0;
  globalThis.resetKeyStages = () => { key = down = frame = sent = received = early = glyph = 0; };
  globalThis.keyStages = () => glyph ? { toPage: down - key, toSend: sent - down, roundTrip: received - sent,
    toGlyph: glyph - received, total: glyph - key, beforeFirstFrame: early } : null;
  document.addEventListener('keydown', (event) => {
    if (down) return;
    down = performance.now();
    key = event.timeStamp > 0 && event.timeStamp <= down ? event.timeStamp : down;
    requestAnimationFrame(() => { frame = performance.now(); });
  }, true);
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (down && !sent && typeof data !== 'string') sent = performance.now();
    return send.call(this, data);
  };
  const Native = WebSocket;
  globalThis.WebSocket = function (...args) {
    const socket = new Native(...args);
    socket.addEventListener('message', (event) => {
      if (sent && !received && typeof event.data !== 'string') { received = performance.now(); early = frame ? 0 : 1; }
    });
    return socket;
  };
  globalThis.WebSocket.prototype = Native.prototype;
  Object.assign(globalThis.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  const inRows = (node) => (node instanceof Element ? node : node.parentElement)?.closest('.xterm-rows');
  new MutationObserver((records) => {
    if (received && !glyph && records.some((r) => inRows(r.target))) glyph = performance.now();
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

/** Quiet before each measured key, as between keystrokes. */
const KEY_IDLE_MS = 20;

type KeySamples = Record<keyof KeyStages, number[]>;

/**
 * `samples` idle keystrokes typed into `page` (through CDP, as Playwright's keyboard does), each
 * measured stage by stage by the probe; `undo` runs after each (erasing the key, waiting for that).
 */
async function keystrokeStages(
  page: Page,
  samples: number,
  timeoutMs: number,
  undo: () => Promise<void>,
  /** Resolves once the key's echo was seen from outside the page; its times go to `outside`. */
  echo?: () => Promise<void>,
): Promise<KeySamples & { outside: number[] }> {
  const stages: KeySamples = {
    toPage: [],
    toSend: [],
    roundTrip: [],
    toGlyph: [],
    total: [],
    beforeFirstFrame: [],
  };
  const outside: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    await sleep(KEY_IDLE_MS);
    await page.evaluate(() => (globalThis as unknown as { resetKeyStages: () => void }).resetKeyStages());
    const echoed = echo?.();
    const start = process.hrtime.bigint();
    await page.keyboard.press('x');
    if (echoed) {
      await echoed;
      outside.push(elapsedMs(start));
    }
    const measured = await page
      .waitForFunction(
        () => (globalThis as unknown as { keyStages: () => KeyStages | null }).keyStages(),
        null,
        {
          timeout: timeoutMs,
        },
      )
      .then((handle) => handle.jsonValue() as Promise<KeyStages>);
    for (const name of Object.keys(stages) as Array<keyof KeyStages>) stages[name].push(measured[name]);
    await undo();
  }
  return { ...stages, outside };
}

/** The stage medians, for a row's "also" column. */
function stageColumns(stages: KeySamples): Record<string, number[]> {
  const p50 = (values: number[]): number[] => [quantile(values, 0.5)];
  return {
    'key → keydown ms': p50(stages.toPage),
    'keydown → sent ms': p50(stages.toSend),
    'sent → echo in ms': p50(stages.roundTrip),
    'echo in → glyph ms': p50(stages.toGlyph),
    'echo before 1st frame %': [
      (100 * stages.beforeFirstFrame.reduce((a, b) => a + b, 0)) / stages.beforeFirstFrame.length,
    ],
  };
}

function stageLine(name: string, stages: KeySamples): string {
  const p50 = (values: number[]): string => quantile(values, 0.5).toFixed(1);
  const early = stages.beforeFirstFrame.reduce((a, b) => a + b, 0);
  return (
    `  ${name}: key → glyph p50 ${p50(stages.total)} ms (to keydown ${p50(stages.toPage)}, to the socket ` +
    `${p50(stages.toSend)}, round trip ${p50(stages.roundTrip)}, to the glyph ${p50(stages.toGlyph)}; echo before ` +
    `the first frame after the key ${early}/${stages.total.length})`
  );
}

/**
 * The xterm.js page of the pixel ceiling, typing into the page server's echo socket: keystroke →
 * glyph with Chromium and xterm.js alone, the floor any web terminal in this browser has.
 */
async function echoReference(
  browser: Browser,
  pageServer: XtermPageServer,
  terminal: CeilingTerminal,
  samples: number,
  timeoutMs: number,
): Promise<KeySamples> {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  try {
    await page.addInitScript(KEY_STAGE_PROBE);
    await page.goto(pageServer.url, { waitUntil: 'load' });
    await page.evaluate(
      (t) => (globalThis as unknown as { setup: (t: CeilingTerminal) => string }).setup(t),
      {
        ...terminal,
        webgl: false,
      },
    );
    await page.evaluate(
      (url) => (globalThis as unknown as { openEcho: (url: string) => Promise<void> }).openEcho(url),
      pageServer.echoUrl,
    );
    // The echoed DEL draws nothing; the next x is drawn one cell on.
    return await keystrokeStages(page, samples, timeoutMs, () => page.keyboard.press('Backspace'));
  } finally {
    await page.close();
  }
}

/** The app page, its prompt set: typed `x`s are erased again, each erase awaited. */
async function appKeystrokes(
  page: Page,
  watch: PaneWatch,
  samples: number,
  timeoutMs: number,
): Promise<KeySamples & { outside: number[] }> {
  return keystrokeStages(
    page,
    samples,
    timeoutMs,
    async () => {
      const erased = watch.output((t) => t.includes('\b'), timeoutMs, 'backspace echo');
      await page.keyboard.press('Backspace');
      await erased;
    },
    () => watch.output((t) => t.includes('x'), timeoutMs, 'keystroke echo'),
  );
}

/** Opens the app in a new page of `browser`, the probe installed and its pane focused. */
async function openApp(
  browser: Browser,
  url: string,
  timeoutMs: number,
): Promise<{ page: Page; watch: PaneWatch }> {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  const watch = new PaneWatch();
  page.on('websocket', (socket) => watch.attach(socket));
  await page.addInitScript(KEY_STAGE_PROBE);
  await page.goto(url, { waitUntil: 'load' });
  await page.locator('.xterm').first().waitFor({ timeout: timeoutMs });
  await page.locator('.xterm').first().click();
  return { page, watch };
}

/**
 * The same round trip without a browser: a Node client on the web bridge writes one byte to a raw
 * `cat` pty in the Local environment and waits for its echo (web host, AppService, client, the
 * Local server, the pty and back). What the page's round trip adds on top is Chromium's own path.
 */
async function bridgeRoundTrips(web: WebApp, samples: number, timeoutMs: number): Promise<number[]> {
  const bridge = await BridgeClient.connect(web.url);
  try {
    const envs = await bridge.invoke<Array<{ id: string; settings: { kind: string } }>>(
      'environments.list',
      {},
    );
    const local = envs.find((env) => env.settings.kind === 'local');
    if (!local) throw new Error('the web app has no Local environment');
    const key = await bridge.invoke<{ envId: string; processId: string }>('processes.start', {
      envId: local.id,
      argv: ['cat'],
      tty: true,
      size: { cols: 80, rows: 24 },
    });
    let echoed: (() => void) | null = null;
    bridge.onEvent((name, payload) => {
      if (name !== 'processes.events') return;
      for (const batch of payload as Array<{ processId: string; events: Array<{ kind: string }> }>) {
        if (batch.processId === key.processId && batch.events.some((e) => e.kind === 'output')) echoed?.();
      }
    });
    const times: number[] = [];
    for (let i = 0; i < samples; i += 1) {
      const echo = new Promise<void>((resolve) => (echoed = resolve));
      const start = process.hrtime.bigint();
      void bridge.invoke('processes.write', { ...key, data: 'x' });
      await withTimeout(echo, timeoutMs, 'cat echo over the bridge');
      times.push(elapsedMs(start));
      echoed = null;
      // Idle between keys, as between keystrokes: every sample starts after a quiet spell.
      await sleep(20);
    }
    await bridge.invoke('processes.signal', { ...key, signal: 'kill' }).catch(() => undefined);
    return times;
  } finally {
    bridge.close();
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
      `${keystrokeSamples} samples of an idle \`x\` (Playwright's keyboard, i.e. CDP key events) into the pane's ` +
      "shell, timed in the page from the key event's time stamp to xterm's rows changing (drawn in its animation " +
      "frame; DOM renderer). Reference: the same keys into the ceiling's xterm.js (DOM renderer) wired to a " +
      'WebSocket that echoes each message at once, in the same browser. Both again in a second Chromium started ' +
      `with ${DESKTOP_RENDERER_ARGS.join(' ')}, as the desktop app runs its renderer (see docs/app.md).`,
  );
  recorder.command(writer);
  const browser = await launchChromium();
  const pageServer = await startXtermPage();
  const web = await startWebApp();
  recorder.command(web.commandLine);
  let desktopBrowser: Browser | null = null;
  try {
    const { page, watch } = await openApp(browser, web.url, stepTimeoutMs);
    await typeLine(page, watch, SET_PROMPT, stepTimeoutMs);
    // The WebGL addon replaces xterm's DOM rows; the overview ruler's canvas is there either way.
    const appRenderer = (await page.locator('.xterm-rows').count()) > 0 ? 'dom' : 'webgl';
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
    await ceilingPage.close();
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

    const keys = await appKeystrokes(page, watch, keystrokeSamples, stepTimeoutMs);
    const reference = await echoReference(browser, pageServer, terminal, keystrokeSamples, stepTimeoutMs);
    recorder.ok('idle keystroke → echo at the page', 'ms', keys.outside);
    const bridge = await bridgeRoundTrips(web, keystrokeSamples, stepTimeoutMs);
    recorder.ok('bridge write → echo, Node client (no browser)', 'ms', bridge);
    recorder.ok('keydown → glyph in the page', 'ms', keys.total, stageColumns(keys));
    recorder.ok(
      'keydown → glyph, xterm.js + echo socket (reference)',
      'ms',
      reference.total,
      stageColumns(reference),
    );
    context.log(stageLine('app', keys) + ` (Node on the bridge: ${quantile(bridge, 0.5).toFixed(1)})`);
    context.log(stageLine('reference', reference));

    // The same, in a renderer that runs network tasks after a key at once, as the desktop app's does.
    await page.close();
    desktopBrowser = await launchChromium(DESKTOP_RENDERER_ARGS);
    const desktop = await openApp(desktopBrowser, web.url, stepTimeoutMs);
    const desktopKeys = await appKeystrokes(desktop.page, desktop.watch, keystrokeSamples, stepTimeoutMs);
    const desktopReference = await echoReference(
      desktopBrowser,
      pageServer,
      terminal,
      keystrokeSamples,
      stepTimeoutMs,
    );
    recorder.ok(
      'keydown → glyph in the page, desktop renderer flags',
      'ms',
      desktopKeys.total,
      stageColumns(desktopKeys),
    );
    recorder.ok(
      'keydown → glyph, echo socket reference, desktop renderer flags',
      'ms',
      desktopReference.total,
      stageColumns(desktopReference),
    );
    context.log(stageLine('app, desktop flags', desktopKeys));
    context.log(stageLine('reference, desktop flags', desktopReference));
    context.log(
      `  app ${app.map((v) => v.toFixed(1)).join(', ')} MB/s; ceiling ${ceiling.map((v) => v.toFixed(1)).join(', ')} MB/s`,
    );
  } finally {
    await desktopBrowser?.close();
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
  recorder.ratio(
    'keydown → glyph: app / echo reference',
    'keydown → glyph in the page',
    'keydown → glyph, xterm.js + echo socket (reference)',
  );
  recorder.ratio(
    'keydown → glyph, desktop flags: app / echo reference',
    'keydown → glyph in the page, desktop renderer flags',
    'keydown → glyph, echo socket reference, desktop renderer flags',
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
  recorder.goal(
    'Keydown → glyph in the page p50 ≤ 10 ms',
    recorder.median('keydown → glyph in the page'),
    (v) => v <= 10,
    ms,
    'bare xterm.js with an instant echo needs about two frames in this browser too (the echo-reference rows): ' +
      "Chromium holds the page's tasks after input until the next frame and xterm draws in the frame after; " +
      'see the app / reference ratio and docs/app.md',
  );
}

export const pixelsCase: BenchCase = { id: 'pixels', title: 'Pixels (web mode in Chromium)', run };
