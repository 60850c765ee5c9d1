// Flow control's cost and its bound, counted on the wire between the real client and Tether's real
// server (a tap sees every process/ack): a consumer that keeps up sends a few acks per window,
// not one per chunk; a consumer that lets the window fill before it takes anything never has more
// output outstanding than the window and the server's slack (at most half a window more, at the
// app's window), and still gets every byte.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessHandle } from '../../../electron/client/api';
import { SERVER_OUTPUT_WINDOW_BYTES } from '../../../electron/app/limits';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { flowControlledRetentionSlack } from '../../../electron/server/limits';
import { ackStepBytes, Notification } from '../../../shared/protocol';
import { startServer, TETHER_BIN, type StartedServer } from '../../support/exec-servers';
import { WsTap } from '../../support/ws-tap';

const MiB = 1024 * 1024;
const RUN_TIMEOUT_MS = 90_000;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A Tether ws server behind a tap that records the consumedBytes of every process/ack, in order. */
async function observedServer(): Promise<{ server: StartedServer; tap: WsTap; acks: number[] }> {
  const server = await startServer('tether', 'ws');
  cleanups.push(() => server.stop());
  const acks: number[] = [];
  const tap = await WsTap.start(server.url!, {
    onClientMessage: (message) => {
      if (message.method === Notification.processAck) acks.push(message.params!.consumedBytes as number);
    },
  });
  cleanups.push(() => tap.close());
  return { server, tap, acks };
}

/** The real client connected through the observed link. */
async function observedLink(): Promise<{ client: RemoteExecServerClient; acks: number[] }> {
  const { server, tap, acks } = await observedServer();
  const client = new RemoteExecServerClient({
    transport: server.transportSpec(tap.url),
    clientName: 'flow-control-pacing',
  });
  cleanups.push(() => client.close());
  await client.connect();
  return { client, acks };
}

function startZeros(
  client: RemoteExecServerClient,
  bytes: number,
  windowBytes: number,
): Promise<ProcessHandle> {
  return client.startProcess({
    argv: ['head', '-c', String(bytes), '/dev/zero'],
    cwd: os.tmpdir(),
    tty: false,
    outputWindowBytes: windowBytes,
  });
}

/** Resolves once `handle` closed; rejects on a failure or a gap (flow control must never lose output). */
function closed(handle: ProcessHandle): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the process did not close in time')), RUN_TIMEOUT_MS);
    handle.subscribe((event) => {
      if (event.kind === 'closed') resolve();
      else if (event.kind === 'failed') reject(new Error(event.message));
      else if (event.kind === 'gap') reject(new Error(`output lost: seq ${event.fromSeq}–${event.toSeq}`));
      else return;
      clearTimeout(timer);
    });
  });
}

/** `tether run ARGS -- head -c BYTES /dev/zero` to exit: its code, stdout bytes and stderr. */
function tetherRunZeros(
  args: string[],
  bytes: number,
): Promise<{ code: number | null; stdoutBytes: number; stderr: string }> {
  const child = spawn(
    process.execPath,
    [TETHER_BIN, 'run', ...args, '--', 'head', '-c', String(bytes), '/dev/zero'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  let stdoutBytes = 0;
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdoutBytes += d.length));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdoutBytes, stderr });
    });
  });
}

describe('flow control pacing (tether server)', () => {
  it('costs a consumer that keeps up at most one ack per quarter window', async () => {
    const { client, acks } = await observedLink();
    const total = 64 * MiB;
    const window = 4 * MiB;
    const handle = await startZeros(client, total, window);
    let consumed = 0;
    handle.subscribe((event) => {
      if (event.kind !== 'output') return;
      consumed += event.data.byteLength;
      handle.acknowledge(consumed);
    });
    await closed(handle);

    expect(consumed).toBe(total);
    // Every ack covers a full step, so there can be no more of them than steps in the output.
    expect(acks.length).toBeGreaterThan(0);
    expect(acks.length).toBeLessThanOrEqual(total / ackStepBytes(window));
    expect(acks).toEqual([...acks].sort((a, b) => a - b));
  });

  it('keeps what a consumer has not taken within the window, and delivers everything', async () => {
    const { client, acks } = await observedLink();
    const total = 24 * MiB;
    const window = SERVER_OUTPUT_WINDOW_BYTES;
    const bound = window + flowControlledRetentionSlack(window);
    const handle = await startZeros(client, total, window);
    let received = 0;
    let consumed = 0;
    let mostOutstanding = 0;
    handle.subscribe((event) => {
      if (event.kind !== 'output') return;
      received += event.data.byteLength;
      // What the server may still hold for us: everything past the last ack it can have seen.
      mostOutstanding = Math.max(mostOutstanding, received - (acks[acks.length - 1] ?? 0));
      // A consumer that takes nothing until the window is as full as it can get without an ack
      // (within one ack step of it), then takes it all: the server hits the window every time.
      if (received - consumed >= window - ackStepBytes(window)) {
        consumed = received;
        handle.acknowledge(consumed);
      }
    });
    await closed(handle);

    expect(received).toBe(total);
    expect(mostOutstanding).toBeGreaterThanOrEqual(window - ackStepBytes(window));
    expect(mostOutstanding).toBeLessThanOrEqual(bound);
    // The app's window: whatever the slack's parts, a slow pane never holds more than 1.5 windows.
    expect(mostOutstanding).toBeLessThanOrEqual(1.5 * window);
  });

  it('tether run --output-window sets the window, and 0 turns flow control off', async () => {
    const { server, tap, acks } = await observedServer();
    const where = ['--server', tap.url, '--token-file', server.tokenFile!];
    const total = 8 * MiB;
    const window = MiB;

    const windowed = await tetherRunZeros([...where, '--output-window', String(window)], total);
    expect(windowed).toMatchObject({ code: 0, stdoutBytes: total });
    expect(acks.length).toBeGreaterThan(0);
    expect(acks.length).toBeLessThanOrEqual(total / ackStepBytes(window));

    acks.length = 0;
    const unwindowed = await tetherRunZeros([...where, '--output-window', '0'], total);
    expect(unwindowed).toMatchObject({ code: 0, stdoutBytes: total });
    expect(acks).toEqual([]);

    const refused = await tetherRunZeros([...where, '--output-window', '64M'], total);
    expect(refused.code).toBe(255);
    expect(refused.stderr).toContain('--output-window expects a number of bytes');
  });
});
