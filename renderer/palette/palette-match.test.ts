import { describe, expect, it } from 'vitest';
import { paletteScore } from './palette-match';

describe('paletteScore', () => {
  it('finds an item by the starts of its words, in order', () => {
    expect(paletteScore('Split right', 'sp ri')).toBeGreaterThan(0);
    expect(paletteScore('Kill the process in this pane', 'kill')).toBeGreaterThan(0);
    expect(paletteScore('Disconnect this environment', 'disc env')).toBeGreaterThan(0);
    expect(paletteScore('folder Pi /home/u/src/tether', 'tet')).toBeGreaterThan(0);
  });

  it('finds an item by the initials of its words', () => {
    expect(paletteScore('New terminal', 'nt')).toBeGreaterThan(0);
    expect(paletteScore('Focus file browser', 'ffb')).toBeGreaterThan(0);
  });

  it('finds an item by its words with letters left out', () => {
    expect(paletteScore('Split down', 'splt dwn')).toBeGreaterThan(0);
    expect(paletteScore('New terminal', 'nw trm')).toBeGreaterThan(0);
  });

  it('does not match letters scattered anywhere', () => {
    // A fuzzy match would find all of these: the letters are there, in order.
    expect(paletteScore('Reconnect all', 'rcl')).toBe(0);
    expect(paletteScore('Split down', 'pd')).toBe(0);
    expect(paletteScore('Split down', 'sdn')).toBe(0);
    expect(paletteScore('Move tab left', 'ovt')).toBe(0);
    expect(paletteScore('Split down', 'right')).toBe(0);
    expect(paletteScore('Split right', 'ri sp')).toBe(0);
  });

  it('ranks the start of the text above a later word and above text inside a word', () => {
    const start = paletteScore('Terminal settings', 'term');
    const laterWord = paletteScore('New terminal', 'term');
    const inside = paletteScore('Interminable', 'term');
    expect(start).toBeGreaterThan(laterWord);
    expect(laterWord).toBeGreaterThan(inside);
    expect(inside).toBeGreaterThan(0);
  });

  it('shows everything for an empty search', () => {
    expect(paletteScore('Anything', '  ')).toBe(1);
  });
});
