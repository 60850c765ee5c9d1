// A line diff for the editor's conflict view: Myers' O(ND) shortest edit script between the
// server's version ("theirs") and the editor's ("mine"), grouped into hunks with some context.
export type DiffLine =
  | { kind: 'same'; text: string; theirsLine: number; mineLine: number }
  | { kind: 'theirs'; text: string; theirsLine: number }
  | { kind: 'mine'; text: string; mineLine: number };

export interface DiffHunk {
  lines: DiffLine[];
}

/** Lines of unchanged context kept around each change. */
const CONTEXT_LINES = 3;
/**
 * Beyond this many differing lines the search stops and the rest counts as replaced: the view
 * stays quick on two unrelated versions, and such a diff is read as "all changed" anyway.
 */
const MAX_EDIT_DISTANCE = 2000;

export function diffLines(theirs: string[], mine: string[]): DiffLine[] {
  let start = 0;
  while (start < theirs.length && start < mine.length && theirs[start] === mine[start]) start++;
  let endT = theirs.length;
  let endM = mine.length;
  while (endT > start && endM > start && theirs[endT - 1] === mine[endM - 1]) {
    endT--;
    endM--;
  }
  const out: DiffLine[] = [];
  for (let i = 0; i < start; i++) out.push({ kind: 'same', text: theirs[i]!, theirsLine: i, mineLine: i });
  middle(theirs, mine, start, endT, start, endM, out);
  for (let i = 0; endT + i < theirs.length; i++) {
    out.push({ kind: 'same', text: theirs[endT + i]!, theirsLine: endT + i, mineLine: endM + i });
  }
  return out;
}

/** The differing middle, theirs[t0, t1) against mine[m0, m1), by Myers' greedy search. */
function middle(
  theirs: string[],
  mine: string[],
  t0: number,
  t1: number,
  m0: number,
  m1: number,
  out: DiffLine[],
): void {
  const n = t1 - t0;
  const m = m1 - m0;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    // Only the diagonals step d can come from: the trace stays about D² entries, not D × (N + M).
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && theirs[t0 + x] === mine[m0 + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) {
    for (let i = t0; i < t1; i++) out.push({ kind: 'theirs', text: theirs[i]!, theirsLine: i });
    for (let j = m0; j < m1; j++) out.push({ kind: 'mine', text: mine[j]!, mineLine: j });
    return;
  }
  // Walk the trace back from the end, collecting the path in reverse.
  const reversed: DiffLine[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const before = trace[d]!;
    const at = (diagonal: number): number => before[diagonal + d + 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      reversed.push({ kind: 'same', text: theirs[t0 + x]!, theirsLine: t0 + x, mineLine: m0 + y });
    }
    if (down) {
      y--;
      reversed.push({ kind: 'mine', text: mine[m0 + y]!, mineLine: m0 + y });
    } else {
      x--;
      reversed.push({ kind: 'theirs', text: theirs[t0 + x]!, theirsLine: t0 + x });
    }
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    reversed.push({ kind: 'same', text: theirs[t0 + x]!, theirsLine: t0 + x, mineLine: m0 + y });
  }
  for (let i = reversed.length - 1; i >= 0; i--) out.push(reversed[i]!);
}

/** The changed lines with CONTEXT_LINES of unchanged ones around them; none when nothing differs. */
export function hunksOf(lines: DiffLine[]): DiffHunk[] {
  const ranges: Array<[number, number]> = [];
  lines.forEach((line, i) => {
    if (line.kind === 'same') return;
    const last = ranges[ranges.length - 1];
    // Changes closer than twice the context share one hunk, as in a unified diff.
    if (last && i - last[1] <= 2 * CONTEXT_LINES + 1) last[1] = i;
    else ranges.push([i, i]);
  });
  return ranges.map(([from, to]) => ({
    lines: lines.slice(Math.max(0, from - CONTEXT_LINES), Math.min(lines.length, to + CONTEXT_LINES + 1)),
  }));
}
