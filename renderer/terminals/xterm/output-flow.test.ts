import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProcessEventView } from '../../../shared/ipc';
import { OutputFlow, outputBytes, type OutputSink } from './output-flow';
import { ACK_BATCH_BYTES, ACK_INTERVAL_MS } from './flow-limits';

const text = new TextEncoder();
const out = (seq: number, s: string): ProcessEventView => ({
  kind: 'output',
  seq,
  stream: 'pty',
  data: text.encode(s),
});

/** A sink that parses only when told to, like xterm under load. */
class ManualSink implements OutputSink {
  readonly written: string[] = [];
  /** What each write handed over, untouched. */
  readonly raw: Array<Uint8Array | string> = [];
  readonly waiting: (() => void)[] = [];
  /** Per write: whether it was marked replayed. */
  readonly replayed: boolean[] = [];
  write(data: Uint8Array | string, done: () => void, replayed: boolean): void {
    this.written.push(typeof data === 'string' ? data : new TextDecoder().decode(data));
    this.raw.push(data);
    this.waiting.push(done);
    this.replayed.push(replayed);
  }
  completeAll(): void {
    for (const done of this.waiting.splice(0)) done();
  }
}

function setup(
  replayEvents: ProcessEventView[],
  lastSeq: number,
  watermarks?: { high: number; low: number },
) {
  const sink = new ManualSink();
  const acks: number[] = [];
  let resolveReplay: (() => void) | null = null;
  const replayed = new Promise<void>((r) => (resolveReplay = r));
  const flow = new OutputFlow({
    sink,
    replay: async () => {
      await replayed;
      return { events: replayEvents, lastSeq, shownThroughSeq: lastSeq };
    },
    ack: (bytes) => acks.push(bytes),
    ...(watermarks ? { highWatermark: watermarks.high, lowWatermark: watermarks.low } : {}),
  });
  return { sink, acks, flow, finishReplay: () => resolveReplay?.() };
}

describe('OutputFlow', () => {
  it('writes the replay first, holds live events meanwhile and drops the duplicates', async () => {
    const { sink, flow, finishReplay } = setup([out(1, 'a'), out(2, 'b')], 2);
    const started = flow.start();
    flow.pushLive([out(2, 'b'), out(3, 'c')]);
    expect(sink.written).toEqual([]);
    finishReplay();
    await started;
    flow.pushLive([out(3, 'c'), out(4, 'd')]);
    expect(sink.written).toEqual(['a', 'b', 'c', 'd']);
    // Only the replay is history; the held live event is written as live.
    expect(sink.replayed).toEqual([true, true, false, false]);
    expect(flow.lastSeq).toBe(4);
  });

  it('acknowledges every received output byte exactly once, after it is parsed', async () => {
    const { sink, acks, flow, finishReplay } = setup([out(1, 'hello')], 1);
    finishReplay();
    await flow.start();
    flow.pushLive([out(1, 'hello'), out(2, 'world!')]);
    expect(acks.reduce((a, b) => a + b, 0)).toBe(5);
    sink.completeAll();
    flow.dispose();
    expect(acks.reduce((a, b) => a + b, 0)).toBe(5 + 5 + 6);
  });

  it('stops handing output to the sink above the high watermark and resumes below the low one', async () => {
    const { sink, flow, finishReplay } = setup([], 0, { high: 10, low: 4 });
    finishReplay();
    await flow.start();
    flow.pushLive([out(1, '123456'), out(2, '789012'), out(3, 'abc'), out(4, 'def')]);
    expect(sink.written).toEqual(['123456', '789012']);
    expect(flow.pendingBytes).toBe(12);
    expect(flow.queuedBytes).toBe(6);
    sink.waiting.shift()?.();
    expect(sink.written).toHaveLength(2);
    sink.waiting.shift()?.();
    expect(sink.written).toEqual(['123456', '789012', 'abc', 'def']);
  });

  it('renders a gap as a visible marker with the lost seqs', async () => {
    const gap: ProcessEventView = {
      kind: 'gap',
      fromSeq: 3,
      toSeq: 9,
      at: Date.UTC(2026, 0, 1, 12, 3, 4),
    };
    const { sink, flow, finishReplay } = setup([out(1, 'x'), gap, out(10, 'y')], 10);
    finishReplay();
    await flow.start();
    expect(sink.written[1]).toContain('⚠ output lost: seqs 3–9 (server no longer held it)');
    expect(sink.written[2]).toBe('y');
  });

  it("says so when the app's own output limit dropped what a gap covers", async () => {
    const gap: ProcessEventView = { kind: 'gap', fromSeq: 1, toSeq: 4, at: 0, cause: 'app' };
    const { sink, flow, finishReplay } = setup([gap, out(5, 'y')], 5);
    finishReplay();
    await flow.start();
    expect(sink.written[0]).toContain("⚠ output lost: seqs 1–4 (over the app's output limit)");
    expect(sink.written[1]).toBe('y');
  });

  it('writes output bytes to the sink as they came, invalid UTF-8 included', async () => {
    const bytes = Uint8Array.from([0xe2, 0x82, 0xff, 0x00, 0x1b]);
    const { sink, flow, finishReplay } = setup([{ kind: 'output', seq: 1, stream: 'pty', data: bytes }], 1);
    finishReplay();
    await flow.start();
    expect(sink.raw[0]).toBe(bytes);
  });

  it('catches up from the last written seq after the bridge reconnects', async () => {
    const calls: number[] = [];
    const sink = new ManualSink();
    const flow = new OutputFlow({
      sink,
      replay: async (afterSeq) => {
        calls.push(afterSeq);
        return afterSeq === 0
          ? { events: [out(1, 'a')], lastSeq: 1, shownThroughSeq: 1 }
          : { events: [out(2, 'b')], lastSeq: 2, shownThroughSeq: 2 };
      },
      ack: () => undefined,
    });
    await flow.start();
    await flow.catchUp();
    expect(calls).toEqual([0, 1]);
    expect(sink.written).toEqual(['a', 'b']);
    expect(sink.replayed).toEqual([true, true]);
  });

  it('marks as replayed only what some terminal has shown: later replayed output is fresh', async () => {
    const sink = new ManualSink();
    const flow = new OutputFlow({
      sink,
      // A new pane: seq 1 was parsed elsewhere, 2 and 3 never were. Then a catch-up after the
      // bridge was down: 4 was shown by another window meanwhile, 5 by none.
      replay: async (afterSeq) =>
        afterSeq === 0
          ? { events: [out(1, 'a'), out(2, 'b'), out(3, 'c')], lastSeq: 3, shownThroughSeq: 1 }
          : { events: [out(4, 'd'), out(5, 'e')], lastSeq: 5, shownThroughSeq: 4 },
      ack: () => undefined,
    });
    await flow.start();
    await flow.catchUp();
    expect(sink.written).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(sink.replayed).toEqual([true, false, false, true, false]);
  });

  it('tells with its acks how far the sink has parsed, and nothing for output it never parsed', async () => {
    const sink = new ManualSink();
    const acks: Array<[number, number | undefined]> = [];
    const flow = new OutputFlow({
      sink,
      replay: async () => ({ events: [out(1, 'ab'), out(2, 'cd')], lastSeq: 2, shownThroughSeq: 0 }),
      ack: (bytes, shownThroughSeq) => acks.push([bytes, shownThroughSeq]),
    });
    await flow.start();
    sink.waiting.shift()?.();
    flow.pushLive([out(2, 'cd')]);
    // The duplicate is acknowledged at once, with seq 1's parsed bytes: seq 2 is not parsed yet.
    expect(acks).toEqual([[4, 1]]);
    flow.pushLive([out(3, 'ef')]);
    sink.waiting.shift()?.();
    flow.dispose();
    // Seq 2 was parsed; seq 3 (still in the sink) is acknowledged on dispose but never shown.
    expect(acks).toEqual([
      [4, 1],
      [4, 2],
    ]);
    expect(sum(acks.map(([bytes]) => bytes))).toBe(8);
  });
});

const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
const exited = (seq: number, exitCode = 0): ProcessEventView => ({ kind: 'exited', seq, exitCode });
/** An output event of exactly `bytes` bytes. */
const outOf = (seq: number, bytes: number): ProcessEventView => out(seq, 'x'.repeat(bytes));

/** A flow whose replay has already returned nothing, ready for live events. */
async function live(watermarks?: { high: number; low: number }) {
  const parts = setup([], 0, watermarks);
  parts.finishReplay();
  await parts.flow.start();
  return parts;
}

describe('OutputFlow acknowledgements', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('batches small acknowledgements into one per interval', async () => {
    vi.useFakeTimers();
    const { sink, acks, flow } = await live();
    flow.pushLive([out(1, 'abc'), out(2, 'de')]);
    sink.completeAll();
    // A duplicate marker-only event owes nothing and must not flush the batch early.
    flow.pushLive([exited(2)]);
    expect(acks).toEqual([]);
    vi.advanceTimersByTime(ACK_INTERVAL_MS);
    expect(acks).toEqual([5]);
    vi.advanceTimersByTime(ACK_INTERVAL_MS * 10);
    expect(acks).toEqual([5]);
  });

  it('starts a new interval for bytes parsed after a flush', async () => {
    vi.useFakeTimers();
    const { sink, acks, flow } = await live();
    flow.pushLive([out(1, 'abc')]);
    sink.completeAll();
    vi.advanceTimersByTime(ACK_INTERVAL_MS);
    flow.pushLive([out(2, 'de')]);
    sink.completeAll();
    vi.advanceTimersByTime(ACK_INTERVAL_MS);
    expect(acks).toEqual([3, 2]);
  });

  it('acknowledges at once when a full batch is waiting, and cancels the pending interval', async () => {
    vi.useFakeTimers();
    const { sink, acks, flow } = await live();
    flow.pushLive([outOf(1, 100)]);
    sink.completeAll();
    expect(acks).toEqual([]);
    flow.pushLive([outOf(2, ACK_BATCH_BYTES - 100)]);
    sink.completeAll();
    expect(acks).toEqual([ACK_BATCH_BYTES]);
    vi.advanceTimersByTime(ACK_INTERVAL_MS * 10);
    expect(acks).toEqual([ACK_BATCH_BYTES]);
    flow.pushLive([out(3, 'z')]);
    sink.completeAll();
    vi.advanceTimersByTime(ACK_INTERVAL_MS);
    expect(acks).toEqual([ACK_BATCH_BYTES, 1]);
  });

  it('does not acknowledge the bytes of markers', async () => {
    vi.useFakeTimers();
    const { sink, acks, flow } = await live();
    flow.pushLive([exited(1, 3)]);
    sink.completeAll();
    vi.advanceTimersByTime(ACK_INTERVAL_MS);
    flow.dispose();
    expect(acks).toEqual([]);
  });

  it('on dispose acknowledges what is queued, held or in the sink, once, and ignores later completions', async () => {
    vi.useFakeTimers();
    const { sink, acks, flow, finishReplay } = setup([], 0, { high: 4, low: 1 });
    const started = flow.start();
    flow.pushLive([out(1, 'held')]);
    finishReplay();
    await started;
    flow.pushLive([out(2, 'queued')]);
    expect(sink.written).toEqual(['held']);
    sink.completeAll();
    expect(sink.written).toEqual(['held', 'queued']);
    flow.pushLive([out(3, 'more')]);
    flow.dispose();
    flow.dispose();
    expect(sum(acks)).toBe(4 + 6 + 4);
    sink.completeAll();
    vi.advanceTimersByTime(ACK_INTERVAL_MS * 10);
    expect(sum(acks)).toBe(4 + 6 + 4);
  });

  it('acknowledges events held during the replay when disposed before it ends, then the replay', async () => {
    const { acks, flow, finishReplay } = setup([out(1, 'old')], 1);
    const started = flow.start();
    flow.pushLive([out(2, 'ab'), exited(3)]);
    flow.dispose();
    expect(acks).toEqual([2]);
    finishReplay();
    await started;
    expect(acks).toEqual([2, 3]);
  });

  it('after dispose, acknowledges live events at once and writes nothing', async () => {
    const { sink, acks, flow } = await live();
    flow.dispose();
    flow.pushLive([out(1, 'abc'), exited(2)]);
    expect(acks).toEqual([3]);
    expect(sink.written).toEqual([]);
  });
});

describe('OutputFlow watermarks', () => {
  it('pauses once the pending bytes reach the high watermark exactly', async () => {
    const { sink, flow } = await live({ high: 6, low: 2 });
    flow.pushLive([out(1, '123456'), out(2, 'a')]);
    expect(sink.written).toEqual(['123456']);
    expect(flow.queuedBytes).toBe(1);
  });

  it('resumes once the pending bytes fall to the low watermark exactly', async () => {
    const { sink, flow } = await live({ high: 6, low: 2 });
    flow.pushLive([out(1, '1234'), out(2, 'ab'), out(3, 'c')]);
    expect(sink.written).toEqual(['1234', 'ab']);
    sink.waiting.shift()?.();
    expect(sink.written).toEqual(['1234', 'ab', 'c']);
  });
});

describe('OutputFlow replay', () => {
  it('replays once, however often it is started', async () => {
    const calls: number[] = [];
    const flow = new OutputFlow({
      sink: new ManualSink(),
      replay: async (afterSeq) => {
        calls.push(afterSeq);
        return { events: [], lastSeq: 0, shownThroughSeq: 0 };
      },
      ack: () => undefined,
    });
    await Promise.all([flow.start(), flow.start()]);
    await flow.start();
    expect(calls).toEqual([0]);
  });

  it('holds live events that arrive before it is started', async () => {
    const { sink, flow, finishReplay } = setup([out(1, 'a')], 1);
    flow.pushLive([out(2, 'b')]);
    expect(sink.written).toEqual([]);
    finishReplay();
    await flow.start();
    expect(sink.written).toEqual(['a', 'b']);
  });

  it('catches up only once started, not during a replay, and never after dispose', async () => {
    const calls: number[] = [];
    let release: (() => void) | null = null;
    const flow = new OutputFlow({
      sink: new ManualSink(),
      replay: async (afterSeq) => {
        calls.push(afterSeq);
        if (afterSeq === 0) await new Promise<void>((resolve) => (release = resolve));
        return { events: [], lastSeq: 4, shownThroughSeq: 4 };
      },
      ack: () => undefined,
    });
    await flow.catchUp();
    expect(calls).toEqual([]);
    const started = flow.start();
    await flow.catchUp();
    expect(calls).toEqual([0]);
    release!();
    await started;
    await flow.catchUp();
    expect(calls).toEqual([0, 4]);
    flow.dispose();
    await flow.catchUp();
    expect(calls).toEqual([0, 4]);
  });

  it('takes the lastSeq of a replay that returned no events', async () => {
    const { sink, flow, finishReplay } = setup([], 7);
    finishReplay();
    await flow.start();
    expect(flow.lastSeq).toBe(7);
    flow.pushLive([out(7, 'dup'), out(8, 'new')]);
    expect(sink.written).toEqual(['new']);
  });

  it('never moves lastSeq back for a replay that returned less', async () => {
    const flow = new OutputFlow({
      sink: new ManualSink(),
      replay: async (afterSeq) => ({
        events: afterSeq === 0 ? [out(1, 'a'), out(2, 'b')] : [],
        lastSeq: 1,
        shownThroughSeq: 1,
      }),
      ack: () => undefined,
    });
    await flow.start();
    expect(flow.lastSeq).toBe(2);
  });

  it('writes nothing when disposed while the replay is in flight, but acknowledges what it returns', async () => {
    // The AppService counted the replayed bytes against this renderer's window when it answered.
    const { sink, acks, flow, finishReplay } = setup([out(1, 'abc'), exited(2), out(3, 'de')], 3);
    const started = flow.start();
    flow.dispose();
    finishReplay();
    await started;
    expect(sink.written).toEqual([]);
    expect(acks).toEqual([5]);
  });

  it('says so in the terminal when the replay fails, then goes live', async () => {
    const sink = new ManualSink();
    const flow = new OutputFlow({
      sink,
      replay: async () => {
        throw new Error('bridge gone');
      },
      ack: () => undefined,
    });
    await flow.start();
    flow.pushLive([out(1, 'x')]);
    expect(sink.written).toEqual([
      '\r\n\x1b[31mcould not replay earlier output: bridge gone\x1b[0m\r\n',
      'x',
    ]);
  });

  it('stays silent when a replay fails after dispose', async () => {
    const sink = new ManualSink();
    let fail: ((error: Error) => void) | null = null;
    const flow = new OutputFlow({
      sink,
      replay: () => new Promise((_, reject) => (fail = reject)),
      ack: () => undefined,
    });
    const started = flow.start();
    flow.dispose();
    fail!(new Error('late'));
    await started;
    expect(sink.written).toEqual([]);
  });
});

describe('OutputFlow markers', () => {
  it('shows exits, failures and gaps in their colours; a closed event shows nothing', async () => {
    const at = Date.UTC(2026, 0, 1, 12, 3, 4);
    const { sink, flow } = await live();
    flow.pushLive([
      { kind: 'gap', fromSeq: 1, toSeq: 1, at },
      exited(2, 3),
      { kind: 'failed', seq: 3, message: 'lost' },
      { kind: 'closed', seq: 4 },
    ]);
    const clock = new Date(at).toTimeString().slice(0, 8);
    expect(sink.written).toEqual([
      `\r\n\x1b[2;33m⚠ output lost: seq 1 (server no longer held it) at ${clock}\x1b[0m\r\n`,
      '\r\n\x1b[2m[process exited with code 3]\x1b[0m\r\n',
      '\r\n\x1b[31m[process failed: lost]\x1b[0m\r\n',
    ]);
    expect(flow.lastSeq).toBe(4);
  });
});

describe('OutputFlow pipe output', () => {
  const piped = (seq: number, stream: 'stdout' | 'stderr', s: string): ProcessEventView => ({
    kind: 'output',
    seq,
    stream,
    data: text.encode(s),
  });

  it('writes stdout and stderr as the pipe translation shows them, and acknowledges the bytes received', async () => {
    const { sink, flow, acks } = await live();
    flow.pushLive([piped(1, 'stdout', 'a\nb\n'), piped(2, 'stderr', 'err\n'), exited(3, 1)]);
    expect(sink.written).toEqual([
      'a\r\nb\r\n',
      '\x1b[31merr\r\n',
      // stderr's colour is reset before the pane's own line.
      '\x1b[0m\r\n\x1b[2m[process exited with code 1]\x1b[0m\r\n',
    ]);
    sink.completeAll();
    await vi.waitFor(() => expect(sum(acks)).toBe(8));
  });

  it('leaves pty output exactly as it came', async () => {
    const { sink, flow } = await live();
    flow.pushLive([out(1, 'a\nb\r\n\x1b[31mred')]);
    expect(sink.written).toEqual(['a\nb\r\n\x1b[31mred']);
  });
});

describe('outputBytes', () => {
  it('is the decoded length of an output event, padding included, and 0 otherwise', () => {
    expect(outputBytes(out(1, 'a'))).toBe(1);
    expect(outputBytes(out(1, 'ab'))).toBe(2);
    expect(outputBytes(out(1, 'abc'))).toBe(3);
    expect(outputBytes(out(1, ''))).toBe(0);
    expect(outputBytes(exited(1))).toBe(0);
    expect(outputBytes({ kind: 'gap', fromSeq: 1, toSeq: 9, at: 0 })).toBe(0);
  });
});
