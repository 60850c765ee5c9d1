import { describe, expect, it } from 'vitest';
import type { ProcessEventView } from '../../shared/ipc';
import { OutputFlow, type OutputSink } from './output-flow';
import { encodeBase64 } from './base64';

const text = new TextEncoder();
const out = (seq: number, s: string): ProcessEventView => ({
  kind: 'output',
  seq,
  stream: 'pty',
  data: encodeBase64(text.encode(s)),
});

/** A sink that parses only when told to, like xterm under load. */
class ManualSink implements OutputSink {
  readonly written: string[] = [];
  readonly waiting: (() => void)[] = [];
  write(data: Uint8Array | string, done: () => void): void {
    this.written.push(typeof data === 'string' ? data : new TextDecoder().decode(data));
    this.waiting.push(done);
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
      return { events: replayEvents, lastSeq };
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
      seq: 3,
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

  it('catches up from the last written seq after the bridge reconnects', async () => {
    const calls: number[] = [];
    const sink = new ManualSink();
    const flow = new OutputFlow({
      sink,
      replay: async (afterSeq) => {
        calls.push(afterSeq);
        return afterSeq === 0 ? { events: [out(1, 'a')], lastSeq: 1 } : { events: [out(2, 'b')], lastSeq: 2 };
      },
      ack: () => undefined,
    });
    await flow.start();
    await flow.catchUp();
    expect(calls).toEqual([0, 1]);
    expect(sink.written).toEqual(['a', 'b']);
  });
});
