import { describe, expect, it } from 'vitest';
import { neighbourInDirection, type PaneRect } from './pane-geometry';

const rect = (id: string, left: number, top: number, right: number, bottom: number): PaneRect => ({
  id,
  left,
  top,
  right,
  bottom,
});

// A 2×2 grid split as the tree builds it: the left column (tl over bl) then the right one (tr over
// br), so by tree order "the next pane" after bl is tr, while on screen right of bl is br.
const GRID = [
  rect('tl', 0, 0, 398, 298),
  rect('bl', 0, 302, 398, 600),
  rect('tr', 402, 0, 800, 298),
  rect('br', 402, 302, 800, 600),
];

describe('neighbourInDirection', () => {
  it('moves across a 2×2 grid by position, not by tree order', () => {
    expect(neighbourInDirection(GRID, 'bl', 'right')).toBe('br');
    expect(neighbourInDirection(GRID, 'br', 'up')).toBe('tr');
    expect(neighbourInDirection(GRID, 'tr', 'left')).toBe('tl');
    expect(neighbourInDirection(GRID, 'tl', 'down')).toBe('bl');
  });

  it('stays put at an edge', () => {
    expect(neighbourInDirection(GRID, 'tl', 'left')).toBeNull();
    expect(neighbourInDirection(GRID, 'tl', 'up')).toBeNull();
    expect(neighbourInDirection(GRID, 'br', 'right')).toBeNull();
  });

  it('prefers the nearer pane, then the one in line with the current pane', () => {
    // One tall pane on the left; on the right a thin column, then two stacked panes further out.
    const rects = [
      rect('tall', 0, 0, 300, 600),
      rect('thin', 304, 0, 400, 600),
      rect('far-top', 404, 0, 800, 200),
      rect('far-bottom', 404, 204, 800, 600),
    ];
    expect(neighbourInDirection(rects, 'tall', 'right')).toBe('thin');
    // From the thin column, its centre (y 300) lies within far-bottom.
    expect(neighbourInDirection(rects, 'thin', 'right')).toBe('far-bottom');
    expect(neighbourInDirection(rects, 'far-top', 'left')).toBe('thin');
  });

  it('ignores panes that share no rows with it', () => {
    const rects = [rect('a', 0, 0, 100, 100), rect('b', 200, 150, 300, 250)];
    expect(neighbourInDirection(rects, 'a', 'right')).toBeNull();
  });
});
