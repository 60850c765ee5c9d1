// The one "poll until" of the test suites. Tests wait for conditions, never for fixed times (the
// machine is shared and small), so every wait is a bounded poll that names what it waited for.

/** How long a wait lasts unless the caller says: generous, as several test files share two cores. */
export const DEFAULT_WAIT_MS = 30_000;
const DEFAULT_INTERVAL_MS = 25;

/**
 * Calls `probe` (sync or async) every `intervalMs` until it returns a truthy value, and returns
 * that value; fails with `what` in the message once `timeoutMs` has passed.
 */
export async function waitFor<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = DEFAULT_WAIT_MS,
  intervalMs = DEFAULT_INTERVAL_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
