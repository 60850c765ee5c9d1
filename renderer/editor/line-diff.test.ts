// The conflict view's line diff: a shortest edit script whose lines rebuild both versions, and hunks
// that keep three lines of context and merge changes that are close.
import { describe, expect, it } from 'vitest';
import { diffLines, hunksOf, type DiffLine } from './line-diff';

const theirsOf = (d: DiffLine[]) => d.filter((l) => l.kind !== 'mine').map((l) => l.text);
const mineOf = (d: DiffLine[]) => d.filter((l) => l.kind !== 'theirs').map((l) => l.text);
const changes = (d: DiffLine[]) => d.filter((l) => l.kind !== 'same').length;

describe('diffLines', () => {
  it('finds the one changed line between equal neighbours', () => {
    const d = diffLines(['a', 'b', 'c'], ['a', 'B', 'c']);
    expect(d.map((l) => `${l.kind}:${l.text}`)).toEqual(['same:a', 'theirs:b', 'mine:B', 'same:c']);
  });

  it('rebuilds both sides and is as short as an edit can be', () => {
    const theirs = 'the quick brown fox jumps over the lazy dog'.split(' ');
    const mine = 'a quick brown cat jumps over the dog today'.split(' ');
    const d = diffLines(theirs, mine);
    expect(theirsOf(d)).toEqual(theirs);
    expect(mineOf(d)).toEqual(mine);
    // the→a, fox→cat (2 each), lazy deleted, today added: 6 changed lines.
    expect(changes(d)).toBe(6);
  });

  it('reports insertions and deletions at either end', () => {
    expect(changes(diffLines([], ['x', 'y']))).toBe(2);
    expect(changes(diffLines(['x', 'y'], []))).toBe(2);
    const d = diffLines(['b', 'c'], ['a', 'b', 'c', 'd']);
    expect(d.map((l) => l.kind)).toEqual(['mine', 'same', 'same', 'mine']);
  });

  it('gives up on two unrelated long versions as all replaced, still rebuilding both', () => {
    const theirs = Array.from({ length: 3000 }, (_, i) => `t${i}`);
    const mine = Array.from({ length: 3000 }, (_, i) => `m${i}`);
    const d = diffLines(theirs, mine);
    expect(theirsOf(d)).toEqual(theirs);
    expect(mineOf(d)).toEqual(mine);
  });
});

describe('hunksOf', () => {
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);

  it('keeps three lines of context around a change, and nothing when nothing changed', () => {
    expect(hunksOf(diffLines(lines, lines))).toEqual([]);
    const mine = lines.map((l, i) => (i === 10 ? 'changed' : l));
    const [hunk, ...rest] = hunksOf(diffLines(lines, mine));
    expect(rest).toEqual([]);
    expect(hunk!.lines.map((l) => l.text)).toEqual([
      'line 7',
      'line 8',
      'line 9',
      'line 10',
      'changed',
      'line 11',
      'line 12',
      'line 13',
    ]);
  });

  it('merges changes closer than twice the context and splits those further apart', () => {
    const near = lines.map((l, i) => (i === 5 || i === 11 ? `${l}!` : l));
    expect(hunksOf(diffLines(lines, near))).toHaveLength(1);
    const far = lines.map((l, i) => (i === 5 || i === 20 ? `${l}!` : l));
    expect(hunksOf(diffLines(lines, far))).toHaveLength(2);
  });
});
