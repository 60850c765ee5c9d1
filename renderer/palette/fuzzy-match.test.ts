import { describe, expect, it } from 'vitest';
import { fuzzyMatch, rankFuzzy } from './fuzzy-match';

const rank = (files: string[], query: string) => rankFuzzy(files, (f) => f, query, 10).map((r) => r.item);

describe('fuzzyMatch', () => {
  it('matches a subsequence, case-insensitively and ignoring spaces, and says where', () => {
    expect(fuzzyMatch('fzm', 'renderer/palette/fuzzy-match.ts')?.positions).toEqual([17, 19, 23]);
    expect(fuzzyMatch('FUZ mat', 'src/FuzzyMatch.ts')).not.toBeNull();
    expect(fuzzyMatch('mf', 'fuzzy-match.ts')).toBeNull();
    expect(fuzzyMatch('xyz', 'fuzzy-match.ts')).toBeNull();
  });

  it('aligns on word and segment starts rather than on the first occurrence', () => {
    // "st" is in "la-st" too, but the start of the word "step" wins.
    expect(fuzzyMatch('st', 'last-step.ts')?.positions).toEqual([5, 6]);
    expect(fuzzyMatch('cp', 'command-palette.tsx')?.positions).toEqual([0, 8]);
    expect(fuzzyMatch('fm', 'src/fmt/fuzzy-match.ts')?.positions).toEqual([4, 5]);
    expect(fuzzyMatch('ea', 'editor/editor-actions.ts')?.positions).toEqual([7, 14]);
  });
});

describe('rankFuzzy', () => {
  it('puts a name that starts with the query before one that holds it, and shorter paths first', () => {
    const files = [
      'renderer/palette/command-palette.tsx',
      'docs/apple.md',
      'test/unit/palette.test.ts',
      'palette.ts',
    ];
    expect(rank(files, 'palette')).toEqual([
      'palette.ts',
      'test/unit/palette.test.ts',
      'renderer/palette/command-palette.tsx',
    ]);
  });

  it('prefers consecutive characters and word starts in the file name', () => {
    const files = ['src/r/e/a/d/m/e.txt', 'docs/ready-made.md', 'README.md'];
    expect(rank(files, 'readme')[0]).toBe('README.md');
    expect(rank(['lib/editor/actions.ts', 'lib/eat.ts', 'lib/edit-actions.ts'], 'edac')[0]).toBe(
      'lib/edit-actions.ts',
    );
  });

  it('keeps the host order for equal scores and stops at the limit', () => {
    const files = Array.from({ length: 30 }, (_, i) => `dir${String(i).padStart(2, '0')}/a.ts`);
    const ranked = rankFuzzy(files, (f) => f, 'a.ts', 5).map((r) => r.item);
    expect(ranked).toEqual(files.slice(0, 5));
  });
});
