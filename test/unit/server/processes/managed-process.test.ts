import { describe, expect, it } from 'vitest';
import type { ChildIo } from '../../../../electron/server/processes/child-spawn';
import { ManagedProcess } from '../../../../electron/server/processes/managed-process';
import { toWire } from '../../../../electron/server/rpc/outbound';
import { Notification } from '../../../../shared/protocol';

const limits = { retainedOutputBytes: 1_000_000, retainedOutputChunks: 1000, writeIdWindow: 2 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fakeProcess(
  options: { window?: number; stdin?: boolean; unbound?: boolean; retained?: number } = {},
) {
  const sent: Array<{ method: string; params: Record<string, unknown> }> = [];
  const reading: boolean[] = [];
  const written: string[] = [];
  const io: ChildIo = {
    pid: 4242,
    stdinWritable: options.stdin ?? true,
    write: (chunk) => written.push(chunk.toString()),
    closeStdin: () => written.push('<EOF>'),
    setReading: (on) => reading.push(on),
    resize: () => true,
    signalGroup: () => {},
  };
  const managed = new ManagedProcess(
    'p',
    false,
    { ...limits, retainedOutputBytes: options.retained ?? limits.retainedOutputBytes },
    options.window ?? null,
    (message) => {
      // What a JSON-mode connection would send.
      const wire = toWire(message, false);
      sent.push(JSON.parse('text' in wire ? wire.text.toString() : 'null'));
    },
    () => {},
  );
  if (!options.unbound) managed.bind(io);
  return { managed, sent, reading, written, io };
}

const never = new AbortController().signal;

describe('ManagedProcess', () => {
  it('numbers output, exit and close with one counter; closed comes after exit and every EOF', async () => {
    const { managed, sent } = fakeProcess();
    managed.onData('stdout', Buffer.from('a'));
    await sleep(5);
    managed.onData('stderr', Buffer.from('b'));
    managed.onExit(3);
    managed.onStreamEnd();
    expect(sent.map((m) => m.method)).toEqual(['process/output', 'process/output', 'process/exited']);
    managed.onStreamEnd();
    expect(sent.map((m) => [m.method, m.params.seq])).toEqual([
      ['process/output', 1],
      ['process/output', 2],
      ['process/exited', 3],
      ['process/closed', 4],
    ]);
    expect(sent[2]!.params).toEqual({ processId: 'p', seq: 3, exitCode: 3, sandboxDenied: false });
  });

  it('closes only after every stream ended, when the child reported its output and exit before the spawn returned', () => {
    // The reader thread posts the spawn, the output, both EOFs and the exit in one batch for a quick
    // child, so all of it reaches the process before session.ts binds the child.
    const { managed, sent, io } = fakeProcess({ unbound: true });
    managed.onExit(0);
    managed.onStreamEnd();
    managed.onData('stdout', Buffer.from('late'));
    managed.onStreamEnd();
    managed.bind(io);
    expect(sent.map((m) => [m.method, m.params.seq])).toEqual([
      ['process/exited', 1],
      ['process/output', 2],
      ['process/closed', 3],
    ]);
  });

  it('sends a read that follows a quiet spell at once, named by the protocol constants', () => {
    const { managed, sent } = fakeProcess();
    managed.onData('stdout', Buffer.from('echo'));
    expect(sent).toEqual([
      {
        method: Notification.processOutput,
        params: { processId: 'p', seq: 1, stream: 'stdout', chunk: Buffer.from('echo').toString('base64') },
      },
    ]);
  });

  it('computes nextSeq as codex does', async () => {
    const { managed } = fakeProcess();
    managed.onData('stdout', Buffer.from('one'));
    await sleep(5);
    managed.onData('stdout', Buffer.from('two'));
    managed.onExit(0);
    managed.onStreamEnd();
    managed.onStreamEnd();
    expect((await managed.read(0, null, 0, never)).nextSeq).toBe(5);
    const limited = await managed.read(0, 1, 0, never);
    expect(limited.chunks.map((c) => c.seq)).toEqual([1]);
    expect(limited.nextSeq).toBe(2);
    expect((await managed.read(4, 1, 0, never)).nextSeq).toBe(5);
  });

  it('long-polls until output arrives, and returns at once for an unseen exit', async () => {
    const { managed } = fakeProcess();
    const pending = managed.read(0, null, 10_000, never);
    setTimeout(() => managed.onData('stdout', Buffer.from('late')), 20);
    const result = await pending;
    expect(Buffer.from(result.chunks[0]!.chunk as Uint8Array).toString()).toBe('late');
    managed.onExit(0);
    const afterExit = await managed.read(1, null, 10_000, never);
    expect(afterExit).toMatchObject({ chunks: [], exited: true, closed: false });
  });

  it('ends a long poll when the connection goes away', async () => {
    const { managed } = fakeProcess();
    const aborter = new AbortController();
    const pending = managed.read(0, null, 60_000, aborter.signal);
    aborter.abort();
    expect((await pending).chunks).toEqual([]);
  });

  it('writes once per writeId within the window and drops writes after exit', () => {
    const { managed, written } = fakeProcess();
    expect(managed.write(Buffer.from('x'), 'w1')).toBe('accepted');
    expect(managed.write(Buffer.from('x'), 'w1')).toBe('accepted');
    managed.write(Buffer.from('y'), 'w2');
    managed.write(Buffer.from('z'), 'w3');
    managed.write(Buffer.from('x'), 'w1');
    expect(written).toEqual(['x', 'y', 'z', 'x']);
    managed.onExit(0);
    expect(managed.write(Buffer.from('late'), 'w4')).toBe('accepted');
    expect(written).toHaveLength(4);
    expect(fakeProcess({ stdin: false }).managed.write(Buffer.from('x'), 'w')).toBe('stdinClosed');
  });

  it('writes a known writeId again when its bytes differ: that is another write, not a resend', () => {
    const { managed, written } = fakeProcess();
    expect(managed.write(Buffer.from('ls\r'), '1')).toBe('accepted');
    expect(managed.write(Buffer.from('pwd\r'), '1')).toBe('accepted');
    expect(managed.write(Buffer.from('pwd\r'), '1')).toBe('accepted');
    expect(written).toEqual(['ls\r', 'pwd\r']);
  });

  it('pauses reading at the flow-control window or on congestion and resumes on ack', () => {
    const { managed, reading } = fakeProcess({ window: 10 });
    managed.onData('stdout', Buffer.alloc(6));
    expect(reading.at(-1)).toBe(true);
    managed.onData('stdout', Buffer.alloc(6));
    expect(reading.at(-1)).toBe(false);
    managed.ack(4);
    expect(reading.at(-1)).toBe(true);
    managed.setCongested(true);
    expect(reading.at(-1)).toBe(false);
    managed.setCongested(false);
    expect(reading.at(-1)).toBe(true);
  });

  it("keeps a closed process's acknowledged output only within the default retention", async () => {
    const { managed } = fakeProcess({ window: 1_000, retained: 100 });
    const retainedSeqs = async () => (await managed.read(0, null, 0, never)).chunks.map((chunk) => chunk.seq);
    for (let i = 0; i < 10; i++) managed.onData('stdout', Buffer.alloc(100, i));
    managed.ack(600);
    // Running, the window's retention holds all of it.
    expect(await retainedSeqs()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    managed.onExit(0);
    managed.onStreamEnd();
    managed.onStreamEnd();
    // Closed: what is not acknowledged stays (a resume needs it); the rest comes down to 100 bytes.
    expect(await retainedSeqs()).toEqual([7, 8, 9, 10]);
    managed.ack(1_000);
    expect(await retainedSeqs()).toEqual([10]);
  });
});
