// Bounded concurrency for the client's many small calls (listings, metadata, whole files): a
// folder of many entries is a few round trips of many calls each, not one round trip per entry.

/**
 * Runs `task` for each item, at most `limit` at once, starting them in the items' order. Once one
 * fails no new ones start; the first failure is thrown after the running ones have ended.
 */
export async function inParallel<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (next < items.length && failure === null) {
      const index = next++;
      try {
        await task(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
