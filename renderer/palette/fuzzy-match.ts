// Fuzzy matching for Quick open: a query matches a path when its characters appear in order
// (case-insensitive, spaces ignored). The best alignment wins, scored for matches at the start of a
// path segment or of a word (after - _ . or a lower-to-upper case step), for runs of consecutive
// characters and for landing in the file's own name; gaps and long paths cost a little.

export interface FuzzyMatch {
  score: number;
  /** Indexes in the path of the matched characters, ascending (for highlighting). */
  positions: number[];
}

const MATCH = 1;
const SEGMENT_START = 8;
const WORD_START = 6;
const CONSECUTIVE = 5;
const IN_BASENAME = 2;
const GAP = 1;
const PER_CHAR_OF_PATH = 0.05;

function isSeparator(c: string): boolean {
  return c === '-' || c === '_' || c === '.' || c === ' ';
}

function boundaryBonus(path: string, j: number): number {
  if (j === 0) return SEGMENT_START;
  const before = path[j - 1]!;
  if (before === '/') return SEGMENT_START;
  if (isSeparator(before)) return WORD_START;
  const c = path[j]!;
  if (c !== c.toLowerCase() && before === before.toLowerCase() && before !== before.toUpperCase())
    return WORD_START;
  return 0;
}

/** The query as matched: lower case, without spaces. */
export function normalizeQuery(query: string): string {
  return query.replace(/\s+/g, '').toLowerCase();
}

/** Whether `needle` (normalized) is a subsequence of `haystack` (lower case): the quick reject. */
function isSubsequence(needle: string, haystack: string): boolean {
  let i = 0;
  for (let j = 0; j < haystack.length && i < needle.length; j++) if (haystack[j] === needle[i]) i++;
  return i === needle.length;
}

/** The best match of `query` in `path`, or null when its characters are not all there in order. */
export function fuzzyMatch(query: string, path: string): FuzzyMatch | null {
  const q = normalizeQuery(query);
  if (q.length === 0) return { score: 0, positions: [] };
  const lower = path.toLowerCase();
  if (!isSubsequence(q, lower)) return null;
  const n = path.length;
  const baseStart = path.lastIndexOf('/') + 1;
  const NONE = -Infinity;
  // score[i*n + j]: the best score with q[i] matched at j; from[i*n + j]: where q[i-1] was matched.
  const score = new Float64Array(q.length * n).fill(NONE);
  const from = new Int32Array(q.length * n).fill(-1);
  for (let i = 0; i < q.length; i++) {
    // The best of score[i-1][k] - GAP * (j - 1 - k) over k < j - 1 (a gap before j), carried along j.
    let carry = NONE;
    let carryFrom = -1;
    for (let j = i; j < n; j++) {
      if (i > 0 && j >= 2) {
        carry -= GAP;
        const prev = score[(i - 1) * n + j - 2]! - GAP;
        if (prev > carry) {
          carry = prev;
          carryFrom = j - 2;
        }
      }
      if (lower[j] !== q[i]) continue;
      const gain = MATCH + boundaryBonus(path, j) + (j >= baseStart ? IN_BASENAME : 0);
      if (i === 0) {
        score[j] = gain;
        continue;
      }
      const adjacent = j >= 1 ? score[(i - 1) * n + j - 1]! : NONE;
      const viaAdjacent = adjacent === NONE ? NONE : adjacent + gain + CONSECUTIVE;
      const viaGap = carry === NONE ? NONE : carry + gain;
      if (viaAdjacent === NONE && viaGap === NONE) continue;
      if (viaAdjacent >= viaGap) {
        score[i * n + j] = viaAdjacent;
        from[i * n + j] = j - 1;
      } else {
        score[i * n + j] = viaGap;
        from[i * n + j] = carryFrom;
      }
    }
  }
  const last = q.length - 1;
  let best = NONE;
  let end = -1;
  for (let j = 0; j < n; j++) {
    const s = score[last * n + j]!;
    if (s > best) {
      best = s;
      end = j;
    }
  }
  if (end < 0) return null;
  const positions: number[] = [];
  for (let i = last, j = end; i >= 0 && j >= 0; i--) {
    positions.push(j);
    j = from[i * n + j]!;
  }
  positions.reverse();
  return { score: best - PER_CHAR_OF_PATH * n, positions };
}

export interface Ranked<T> {
  item: T;
  match: FuzzyMatch;
}

/** The items whose key matches `query`, best first (ties keep their order), at most `limit`. */
export function rankFuzzy<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  query: string,
  limit: number,
): Ranked<T>[] {
  const ranked: Ranked<T>[] = [];
  for (const item of items) {
    const match = fuzzyMatch(query, keyOf(item));
    if (match) ranked.push({ item, match });
  }
  // Array.prototype.sort is stable: equal scores keep the host's order.
  ranked.sort((a, b) => b.match.score - a.match.score);
  return ranked.slice(0, limit);
}
