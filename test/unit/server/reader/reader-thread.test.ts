// The reader thread against real processes: pipe output in order with exit and stream ends (also
// when several reads travel in one message), spawn failures, a pty's full output before its exit,
// and the read-ahead bound while paused.
import { pbkdf2 } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OutputStream } from '../../../../shared/protocol';
import {
  PipeSpawnError,
  spawnReadPipes,
  spawnReadPty,
} from '../../../../electron/server/reader/reader-thread';
import type { RingLease } from '../../../../electron/server/reader/output-ring';

const env = { PATH: '/usr/bin:/bin' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pipeSpec(args: string[], readAhead = 1024 * 1024) {
  return {
    file: '/bin/sh',
    args,
    argv0: 'sh',
    cwd: '/tmp',
    env,
    pipeStdin: true,
    bounds: { readAhead, ringBytes: 2 * 1024 * 1024 },
  };
}

function collector() {
  const out: Record<OutputStream, Buffer[]> = { stdout: [], stderr: [], pty: [] };
  let ends = 0;
  let leased = 0;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  return {
    out,
    leased: () => leased,
    events: {
      // Copied, then its ring space handed back, as the retained log does once it evicts a chunk.
      data: (stream: OutputStream, chunk: Buffer, lease: RingLease | null) => {
        out[stream].push(Buffer.from(chunk));
        if (lease) leased++;
        lease?.release();
      },
      streamEnd: () => void ends++,
      exit: (code: number | null, signal: NodeJS.Signals | null) => void (exit = { code, signal }),
    },
    text: (stream: OutputStream) => Buffer.concat(out[stream]).toString(),
    bytes: (stream: OutputStream) => out[stream].reduce((n, b) => n + b.length, 0),
    done: async () => {
      for (let i = 0; i < 200 && (ends < 2 || exit === null); i++) await sleep(25);
      return { ends, exit };
    },
  };
}

describe('reader thread', () => {
  it('runs a pipe process: stdin, both streams, exit code and two stream ends', async () => {
    const c = collector();
    const child = await spawnReadPipes(
      pipeSpec(['-c', 'read line; echo "out:$line"; echo err >&2; exit 3']),
      c.events,
    );
    expect(child.pid).toBeGreaterThan(0);
    child.write(Buffer.from('hello\n'));
    const { ends, exit } = await c.done();
    expect(ends).toBe(2);
    expect(exit).toEqual({ code: 3, signal: null });
    expect(c.text('stdout')).toBe('out:hello\n');
    expect(c.text('stderr')).toBe('err\n');
  });

  it('reports a failed spawn with its errno code', async () => {
    const c = collector();
    const spawned = spawnReadPipes({ ...pipeSpec([]), cwd: '/nonexistent-dir-for-test' }, c.events);
    await expect(spawned).rejects.toBeInstanceOf(PipeSpawnError);
    await expect(spawned).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('stops reading a paused stream within the read-ahead and delivers everything after resume', async () => {
    const c = collector();
    const total = 4 * 1024 * 1024;
    const child = await spawnReadPipes(pipeSpec(['-c', `head -c ${total} /dev/zero`], 128 * 1024), c.events);
    child.setReading(false);
    await sleep(500);
    // Output posted before the pause arrived, plus what the pipe and stream buffers hold.
    expect(c.bytes('stdout')).toBeLessThan(1024 * 1024);
    child.setReading(true);
    const { exit } = await c.done();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(c.bytes('stdout')).toBe(total);
  });

  it('keeps a fast pipe output in order and whole across the reads the thread posts together', async () => {
    const c = collector();
    // About 3.4 MB of distinct lines: a full pipe read every time, so one turn of the reader's event
    // loop takes several of them and they reach this thread in one message.
    const lines = 500_000;
    await spawnReadPipes(pipeSpec(['-c', `seq 1 ${lines}`]), c.events);
    const { exit } = await c.done();
    expect(exit).toEqual({ code: 0, signal: null });
    const expected = Array.from({ length: lines }, (_, i) => `${i + 1}\n`).join('');
    expect(c.bytes('stdout')).toBe(expected.length);
    expect(c.text('stdout') === expected).toBe(true);
    // Most of it travelled in the stream's 2 MiB ring, around it more than once.
    expect(c.leased()).toBeGreaterThan(40);
  });

  it('delivers all of a pty program output before node-pty reports the exit', async () => {
    const total = 3 * 1024 * 1024 + 123;
    let bytes = 0;
    const { term } = spawnReadPty(
      '/usr/bin/head',
      ['-c', String(total), '/dev/zero'],
      { cols: 80, rows: 24, env, cwd: '/tmp' },
      { readAhead: 1024 * 1024, ringBytes: 2 * 1024 * 1024 },
      (chunk) => (bytes += chunk.length),
    );
    const exitCode = await new Promise<number>((resolve) => term.onExit(({ exitCode }) => resolve(exitCode)));
    expect(exitCode).toBe(0);
    expect(bytes).toBe(total);
  });

  it('writes input exactly once and in order through a terminal the program drains slowly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-pty-input-'));
    try {
      const size = 512 * 1024;
      const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
      const input = Buffer.from(
        Array.from({ length: size }, (_, i) => letters[(i * 7 + (i >> 10)) % 36]).join(''),
      );
      const out = join(dir, 'out');
      // Raw, so the terminal passes every byte; dd's small reads keep the terminal full, so most
      // of the input waits in the queue and is retried.
      const { term, write } = spawnReadPty(
        '/bin/sh',
        [
          '-c',
          `stty raw -echo && echo ready && dd bs=512 count=${size / 512} iflag=fullblock of=${out} status=none`,
        ],
        { cols: 80, rows: 24, env, cwd: '/tmp' },
        { readAhead: 1024 * 1024, ringBytes: 0 },
        (chunk) => {
          if (!chunk.includes('ready')) return;
          // Written from a buffer the caller reuses at once (as a data frame's may be): what
          // waits for the terminal must be the input's own copy.
          const reused = Buffer.from(input);
          write(reused);
          reused.fill('!');
        },
      );
      const exitCode = await new Promise<number>((resolve) =>
        term.onExit(({ exitCode }) => resolve(exitCode)),
      );
      expect(exitCode).toBe(0);
      const got = readFileSync(out);
      expect(got.length).toBe(size);
      expect(got.equals(input)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps reading other terminals while one holds input its program never reads', async () => {
    const stuck = spawnReadPty(
      '/bin/sleep',
      ['2'],
      { cols: 80, rows: 24, env, cwd: '/tmp' },
      { readAhead: 1024 * 1024, ringBytes: 0 },
      () => {},
    );
    stuck.write(Buffer.alloc(1024 * 1024, 'x'));
    let bytes = 0;
    const total = 256 * 1024;
    const busy = spawnReadPty(
      '/usr/bin/head',
      ['-c', String(total), '/dev/zero'],
      { cols: 80, rows: 24, env, cwd: '/tmp' },
      { readAhead: 1024 * 1024, ringBytes: 0 },
      (chunk) => (bytes += chunk.length),
    );
    const started = Date.now();
    await new Promise<void>((resolve) => busy.term.onExit(() => resolve()));
    expect(bytes).toBe(total);
    // Long before the stuck program's exit: its input never held up the reader thread.
    expect(Date.now() - started).toBeLessThan(1500);
    stuck.term.kill('SIGKILL');
    await new Promise<void>((resolve) => stuck.term.onExit(() => resolve()));
  });

  it('drops input still queued for a pty once its program is gone, even while the thread pool is busy', async () => {
    const logged: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      // Jobs that hold every thread-pool thread past the program's exit: input written through the
      // pool (as node-pty writes it) would run only after the master was closed, and fail with EBADF.
      const poolThreads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
      const busyPool = Array.from(
        { length: poolThreads },
        () => new Promise((resolve) => pbkdf2(String(Math.random()), 'salt', 400_000, 32, 'sha256', resolve)),
      );
      const { term, write } = spawnReadPty(
        '/bin/sleep',
        ['0.1'],
        { cols: 80, rows: 24, env, cwd: '/tmp' },
        { readAhead: 1024 * 1024, ringBytes: 0 },
        () => {},
      );
      // The program never reads, so most of the input waits in the queue.
      write(Buffer.alloc(1024 * 1024, 'x'));
      await new Promise<void>((resolve) => term.onExit(() => resolve()));
      await Promise.all(busyPool);
      await sleep(100);
    } finally {
      console.error = original;
    }
    expect(logged).toEqual([]);
  });
});
