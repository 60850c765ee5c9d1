// The numbers of the `tetherFlowControl` extension that both ends must agree on: the largest window
// a server grants, and the acknowledgement step that keeps a full window moving without an ack per
// chunk. One place, so a client never waits for more room than its server will ever give.

/**
 * Largest `outputWindowBytes` a server grants; a larger request is clamped to it. The server's
 * retention grows to cover the window, so an unbounded window would be unbounded memory.
 */
export const MAX_OUTPUT_WINDOW_BYTES = 16 * 1024 * 1024;

/**
 * Acknowledgements per window. A client acknowledges once a quarter of the window was consumed
 * since its last ack: the server then always has three quarters of a window to send while the ack
 * travels, and a 256 MiB stream costs 256 acks at a 4 MiB window instead of one per chunk. The step
 * is below the window, so once the consumer has taken everything, the last ack has reopened it.
 */
const ACKS_PER_WINDOW = 4;

/** The window a server grants for a requested `outputWindowBytes`. */
export function grantedOutputWindow(requestedBytes: number): number {
  return Math.min(requestedBytes, MAX_OUTPUT_WINDOW_BYTES);
}

/** Consumed bytes that make an acknowledgement worth sending, for a requested window. */
export function ackStepBytes(requestedWindowBytes: number): number {
  return Math.max(1, Math.floor(grantedOutputWindow(requestedWindowBytes) / ACKS_PER_WINDOW));
}
