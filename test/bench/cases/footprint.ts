// Case 6, footprint: the AppService (the `tether web` process) with E environments and P terminal
// processes that printed L lines each, all output acknowledged; its RSS (now and peak) is read from
// /proc (and, against its RSS before any output, what each MiB of retained output costs), then the
// app page is opened in Chromium and its JS heap measured after a forced GC.
import type { BenchCase, BenchContext } from '../lib/bench-case';
import { launchChromium } from '../lib/browser';
import { sleep } from '../lib/child';
import { PTY_SIZE } from '../lib/direct';
import { peakRssMiB, rssMiB } from '../lib/proc-stats';
import type { CaseRecorder } from '../lib/results';
import { BridgeClient, startWebApp } from '../lib/web-app';
import { startServer } from '../../support/exec-servers';
import { waitFor } from '../../support/wait';

/** Budgets stated in docs/benchmarks.md; the goals below judge against them. */
const APP_RSS_BUDGET_MIB = 512;
const RENDERER_HEAP_BUDGET_MIB = 256;
export const FOOTPRINT_BUDGETS = [
  `AppService (main-process) RSS ≤ ${APP_RSS_BUDGET_MIB} MiB with 10 environments and 50 terminal processes of ` +
    '10k lines each (its retained logs are bounded per process, so this must not grow with output volume).',
  `Renderer JS heap ≤ ${RENDERER_HEAP_BUDGET_MIB} MiB for the same app state.`,
];
/** Let timers, batches and the allocator settle before reading memory. */
const SETTLE_MS = 2_000;
/** Output is complete once nothing new arrived for this long after every process exited. */
const QUIET_MS = 500;
const LINE = 'lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt';

async function run(context: BenchContext, recorder: CaseRecorder): Promise<void> {
  const { environments, panes, linesPerPane, timeoutMs } = context.config.footprint;
  recorder.setup(
    `${environments} environments (ws, all to one Tether exec-server), ${panes} tty processes spread over them, ` +
      `each printing ${linesPerPane} lines of ${LINE.length + 1} bytes; output acknowledged by a renderer stand-in on ` +
      "the web bridge. The app's RSS is read after a full GC in it (node --expose-gc and a SIGUSR2 hook only the " +
      'bench enables), before any output and after each of two waves of half the processes: the cost per MiB is the ' +
      "second wave's growth over its output. Then the page is opened in Chromium and its heap read after a forced GC (CDP).",
  );
  const server = await startServer('tether', 'ws');
  // RSS counts garbage too: the app runs a full GC (the bench's hook) before each reading.
  const web = await startWebApp({ gc: true });
  recorder.command(web.commandLine);
  recorder.command(`sh -c "yes '${LINE}' | head -n ${linesPerPane}" (tty ${PTY_SIZE.cols}x${PTY_SIZE.rows})`);
  let bridge: BridgeClient | null = null;
  try {
    bridge = await BridgeClient.connect(web.url);
    const envIds: string[] = [];
    for (let i = 0; i < environments; i += 1) {
      const view = await bridge.invoke<{ id: string }>('environments.add', {
        name: `bench ${i + 1}`,
        color: '#3366aa',
        settings: { kind: 'ws', url: server.url },
        token: server.token,
      });
      envIds.push(view.id);
    }
    await sleep(SETTLE_MS);
    await web.collectGarbage();
    // Before any output: what the retained output adds is measured against this.
    const rssBefore = rssMiB(web.pid);
    const keys: string[] = [];
    const client = bridge;
    const received = (): number => keys.reduce((n, k) => n + (client.outputBytes.get(k) ?? 0), 0);
    /** Starts `count` more panes, waits until their output is all in, then reads memory after a GC. */
    const wave = async (count: number) => {
      const started = keys.length;
      for (let i = started; i < started + count; i += 1) {
        const envId = envIds[i % envIds.length]!;
        const view = await client.invoke<{ envId: string; processId: string }>('processes.start', {
          envId,
          argv: ['/bin/sh', '-c', `yes '${LINE}' | head -n ${linesPerPane}`],
          tty: true,
          size: PTY_SIZE,
        });
        keys.push(`${view.envId}/${view.processId}`);
      }
      await waitFor(
        () => keys.every((k) => client.processStates.get(k) === 'exited'),
        'every process exited',
        timeoutMs,
      );
      for (let last = -1; received() !== last; await sleep(QUIET_MS)) last = received();
      await sleep(SETTLE_MS);
      const memory = await web.collectGarbage();
      const rss = rssMiB(web.pid);
      if (rss === null) throw new Error('the web app process is gone');
      return { memory, rss, retainedMiB: received() / 1_048_576 };
    };
    // Two waves: the second's growth over the first is what retained output costs. The first also
    // pays fixed costs of moving output at all (V8's young generation grows under the allocation
    // rate and stays committed), which the figure from empty includes.
    const first = await wave(Math.floor(panes / 2));
    const second = await wave(panes - Math.floor(panes / 2));
    const expectedBytes = panes * linesPerPane * (LINE.length + 2);
    if (received() < expectedBytes) {
      recorder.note(
        `The renderer stand-in received ${received()} of ${expectedBytes} output bytes (pty tails lost).`,
      );
    }
    const rss = second.rss;
    const peak = peakRssMiB(web.pid);
    if (peak === null) throw new Error('the web app process is gone');
    recorder.ok('AppService RSS', 'MiB', [rss], { 'peak RSS MiB': [peak] });
    if (rssBefore !== null) {
      // Every byte printed is still retained (each process's output is under its log's bound).
      const perMiB = (second.rss - first.rss) / (second.retainedMiB - first.retainedMiB);
      const held = (m: NodeJS.MemoryUsage): number => (m.heapUsed + m.arrayBuffers) / 1_048_576;
      recorder.ok('AppService memory per MiB of retained output', 'MiB/MiB', [perMiB], {
        'retained MiB': [second.retainedMiB],
        'RSS before output MiB': [rssBefore],
        'RSS per MiB from empty': [(second.rss - rssBefore) / second.retainedMiB],
        // V8's own account of the second wave: JS objects and buffers, without committed spare heap.
        'heap+buffers per MiB': [
          (held(second.memory) - held(first.memory)) / (second.retainedMiB - first.retainedMiB),
        ],
      });
      context.log(
        `  ${perMiB.toFixed(2)} MiB of RSS per MiB of retained output (second wave; ` +
          `${((second.rss - rssBefore) / second.retainedMiB).toFixed(2)} from empty, ${second.retainedMiB.toFixed(1)} MiB retained)`,
      );
    }
    context.log(`  AppService RSS ${rss.toFixed(1)} MiB (peak ${peak.toFixed(1)})`);

    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
      await page.goto(web.url, { waitUntil: 'load' });
      await sleep(SETTLE_MS);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; totalSize: number };
      const terminals = await page.locator('.xterm').count();
      recorder.ok('renderer JS heap', 'MiB', [heap.usedSize / 1048576], { 'xterm panes open': [terminals] });
      recorder.note(
        `The page opened with ${terminals} xterm pane(s) mounted; the heap covers the app state as loaded.`,
      );
      context.log(`  renderer heap ${(heap.usedSize / 1048576).toFixed(1)} MiB, ${terminals} panes`);
    } finally {
      await browser.close();
    }
  } finally {
    bridge?.close();
    await web.stop();
    await server.stop();
  }
  const mib = (v: number): string => `${v.toFixed(1)} MiB`;
  recorder.goal(
    `AppService RSS ≤ ${APP_RSS_BUDGET_MIB} MiB (budget)`,
    recorder.median('AppService RSS'),
    (v) => v <= APP_RSS_BUDGET_MIB,
    mib,
  );
  recorder.goal(
    'AppService memory per MiB of retained output ≤ 1.1',
    recorder.median('AppService memory per MiB of retained output'),
    (v) => v <= 1.1,
    (v) => `${v.toFixed(2)} MiB/MiB`,
    "V8's own count is about 1.03 MiB/MiB; the rest is the allocator's and the heap's slack in RSS, " +
      'which moves by ±0.15 between runs (docs/app.md)',
  );
  recorder.goal(
    `Renderer heap ≤ ${RENDERER_HEAP_BUDGET_MIB} MiB (budget)`,
    recorder.median('renderer JS heap'),
    (v) => v <= RENDERER_HEAP_BUDGET_MIB,
    mib,
  );
}

export const footprintCase: BenchCase = { id: 'footprint', title: 'Footprint', run };
