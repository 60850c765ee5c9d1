// Bounds on one decoded JSON-RPC message, applied by both ends to whatever the peer sent before
// anything walks it: a header nested 20 000 deep must be refused by a loop, not reached by recursion.

/** Values one decoded message may hold (codex: 262,144). */
export const MAX_JSON_VALUES = 262_144;
/** Nesting one decoded message may reach (codex: about 128). */
export const MAX_JSON_DEPTH = 128;

/** Why `root` exceeds the limits, or undefined when it does not. Iterative, so any depth is safe. */
export function checkJsonLimits(root: unknown): string | undefined {
  let values = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value: root, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (++values > MAX_JSON_VALUES) {
      return `JSON-RPC message exceeds the limit of ${MAX_JSON_VALUES} JSON values`;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) return 'recursion limit exceeded';
    const children = Array.isArray(value) ? value : Object.values(value);
    for (const child of children) stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}
