// The flow-control numbers both ends share, and the server's read-ahead and slack built on them:
// an ack step never larger than the window the server grants (or a full window would wait for an
// ack that never comes), a reader that holds several chunks in flight, and a slack that keeps the
// windows Tether uses within one and a half windows.
import { describe, expect, it } from 'vitest';
import { SERVER_OUTPUT_WINDOW_BYTES } from '../../../electron/app/limits';
import { RUN_OUTPUT_WINDOW_BYTES } from '../../../electron/client/cli/run-cli';
import {
  flowControlledReadAhead,
  flowControlledRetentionSlack,
  MAX_OUTPUT_CHUNK_BYTES,
  READER_READ_AHEAD_BYTES,
} from '../../../electron/server/limits';
import { ackStepBytes, grantedOutputWindow, MAX_OUTPUT_WINDOW_BYTES } from '../../../shared/protocol';

const MiB = 1024 * 1024;
const WINDOWS = [1, 8 * 1024, 16 * 1024, SERVER_OUTPUT_WINDOW_BYTES, RUN_OUTPUT_WINDOW_BYTES, 256 * MiB];

describe('flow-control policy', () => {
  it('steps acks within the granted window, a quarter of it', () => {
    for (const window of WINDOWS) {
      const step = ackStepBytes(window);
      expect(step, `window ${window}`).toBeGreaterThanOrEqual(1);
      expect(step, `window ${window}`).toBeLessThanOrEqual(grantedOutputWindow(window));
    }
    expect(grantedOutputWindow(256 * MiB)).toBe(MAX_OUTPUT_WINDOW_BYTES);
    expect(ackStepBytes(RUN_OUTPUT_WINDOW_BYTES)).toBe(RUN_OUTPUT_WINDOW_BYTES / 4);
  });

  it('lets the reader of a flow-controlled process run several chunks ahead', () => {
    // At one and a half chunks the reader stopped after every second chunk to wait for the main
    // thread: a thread round trip per chunk, a quarter of the throughput.
    for (const window of [SERVER_OUTPUT_WINDOW_BYTES, RUN_OUTPUT_WINDOW_BYTES]) {
      expect(flowControlledReadAhead(window)).toBeGreaterThanOrEqual(4 * MAX_OUTPUT_CHUNK_BYTES);
    }
    for (const window of WINDOWS) {
      expect(flowControlledReadAhead(window)).toBeLessThanOrEqual(READER_READ_AHEAD_BYTES);
    }
  });

  it('keeps the slack past the window within half a window for the windows Tether asks for', () => {
    for (const window of [SERVER_OUTPUT_WINDOW_BYTES, RUN_OUTPUT_WINDOW_BYTES, MAX_OUTPUT_WINDOW_BYTES]) {
      expect(flowControlledRetentionSlack(window)).toBeLessThanOrEqual(window / 2);
      expect(flowControlledRetentionSlack(window)).toBeGreaterThan(flowControlledReadAhead(window));
    }
  });
});
