// How the palette and quick switch rank an item against what was typed. Stricter than a fuzzy
// any-letter-anywhere match: every typed word has to start a word of the item ("sp ri" finds
// "Split right"), or the text has to appear as typed, or every typed word has to be a word of the
// item with letters left out, from its first letter on ("splt dwn" finds "Split down"), or the
// letters have to be the initials of consecutive words ("nt" finds "New terminal"). Letters taken
// from across words ("rcl" in "Reconnect all") match nothing. 0 hides the item; higher ranks first.

/** Words of an item: runs of letters and digits, so a path's segments and "Settings…" count too. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Every query word starts a different word of the item, in the order typed. */
function wordPrefixes(words: string[], query: string[]): boolean {
  let from = 0;
  for (const q of query) {
    const at = words.findIndex((w, i) => i >= from && w.startsWith(q));
    if (at < 0) return false;
    from = at + 1;
  }
  return true;
}

/** `q` is `word` with letters left out, and starts with its first letter. */
function abbreviates(word: string, q: string): boolean {
  if (word[0] !== q[0]) return false;
  let at = 0;
  for (const c of q) {
    at = word.indexOf(c, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

/** Every query word abbreviates a different word of the item, in the order typed. */
function wordAbbreviations(words: string[], query: string[]): boolean {
  let from = 0;
  for (const q of query) {
    const at = words.findIndex((w, i) => i >= from && abbreviates(w, q));
    if (at < 0) return false;
    from = at + 1;
  }
  return true;
}

/** The query is the initials of consecutive words ("nt" → "New Terminal"). */
function initials(words: string[], query: string): boolean {
  if (query.length < 2) return false;
  const letters = words.map((w) => w[0]).join('');
  return letters.includes(query);
}

export function paletteScore(value: string, search: string, keywords: string[] = []): number {
  const query = search.trim().toLowerCase();
  if (query === '') return 1;
  const text = [value, ...keywords].join(' ').toLowerCase();
  const words = wordsOf(text);
  const queryWords = wordsOf(query);
  if (queryWords.length === 0) return text.includes(query) ? 0.5 : 0;
  if (text.startsWith(query)) return 1;
  if (wordPrefixes(words, queryWords)) {
    // The earlier the first typed word matches, the better: "term" ranks "Terminal…" over "New terminal".
    const first = words.findIndex((w) => w.startsWith(queryWords[0]!));
    return 0.9 - Math.min(first, 8) * 0.02;
  }
  if (text.includes(query)) return 0.6;
  if (wordAbbreviations(words, queryWords)) return 0.5;
  if (queryWords.length === 1 && initials(words, queryWords[0]!)) return 0.4;
  return 0;
}
