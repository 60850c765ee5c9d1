// Type-ahead in lists: typing the start of a name moves to it. A repeated single letter steps
// through the names with that letter, as file managers do.

/** Keys typed further apart than this start a new search. */
export const TYPE_AHEAD_RESET_MS = 800;

/** Index of the name `typed` picks, searching after `from` (the current index) and wrapping. */
export function nextTypeAhead(names: string[], from: number, typed: string): number | null {
  if (names.length === 0 || !typed) return null;
  const needle = typed.toLowerCase();
  const repeated = [...needle].every((ch) => ch === needle[0]);
  // Stepping through one letter starts after the cursor; a longer prefix may match the cursor itself.
  const prefix = repeated ? needle[0]! : needle;
  const start = repeated ? from + 1 : Math.max(from, 0);
  for (let i = 0; i < names.length; i += 1) {
    const index = (start + i) % names.length;
    if (names[index]!.toLowerCase().startsWith(prefix)) return index;
  }
  return null;
}
