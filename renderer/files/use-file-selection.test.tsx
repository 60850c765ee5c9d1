// The file list's selection rules on their own: the cursor and the marked entries as the mouse and
// the keys move them, with the anchor of Shift ranges and type-ahead's pause, on a plain list.
import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useState } from 'react';
import type { FileEntry } from '../../shared/ipc';
import { rangeOf, useFileSelection, type Keys } from './use-file-selection';

const entry = (name: string, kind: FileEntry['kind'] = 'file'): FileEntry => ({
  name,
  path: `/d/${name}`,
  kind,
  size: kind === 'directory' ? null : 1,
  modifiedAtMs: 0,
  hidden: false,
});
const ENTRIES = ['src', 'alpha.txt', 'beta.log', 'bravo.md', 'photo.png'].map((name, i) =>
  entry(name, i === 0 ? 'directory' : 'file'),
);
const p = (...names: string[]) => names.map((n) => `/d/${n}`);

/** The hook over React state of its own, as the files store would hold it, recording what it asks. */
function setup(entries = ENTRIES) {
  const asked: string[] = [];
  const clock = { now: 10_000 };
  const { result } = renderHook(() => {
    const [cursor, setCursor] = useState<string | null>(null);
    const [marked, setMarked] = useState<string[]>([]);
    const selection = useFileSelection({
      entries,
      cursor,
      marked,
      select: (e, range) => {
        setCursor(e.path);
        setMarked(range);
      },
      mark: setMarked,
      activate: (e) => asked.push(`activate ${e.path}`),
      goUp: () => asked.push('up'),
      rename: (e) => asked.push(`rename ${e.path}`),
      remove: (list) => asked.push(`delete ${list.map((e) => e.path).join(' ')}`),
      reveal: (path) => asked.push(`reveal ${path}`),
      now: () => clock.now,
    });
    return { cursor, marked, ...selection };
  });
  const key = (k: string, mods: Omit<Keys, 'key'> = {}) => {
    let handled = false;
    act(() => {
      handled = result.current.onKey({ key: k, ...mods });
    });
    return handled;
  };
  const click = (name: string, mods: { shiftKey?: boolean; ctrlKey?: boolean; metaKey?: boolean } = {}) =>
    act(() =>
      result.current.onRowClick(
        { shiftKey: false, ctrlKey: false, metaKey: false, ...mods },
        entries.find((e) => e.name === name)!,
      ),
    );
  return { result, asked, clock, key, click };
}

describe('useFileSelection', () => {
  it('moves the cursor with the arrows and Home/End, clamped to the list, marking the entry alone', () => {
    const { result, asked, key } = setup();
    key('ArrowDown');
    expect(result.current.cursor).toBe('/d/src');
    key('ArrowDown');
    key('ArrowDown');
    expect(result.current.cursor).toBe('/d/beta.log');
    expect(result.current.marked).toEqual(p('beta.log'));
    key('End');
    key('ArrowDown');
    expect(result.current.cursor).toBe('/d/photo.png');
    key('Home');
    key('ArrowUp');
    expect(result.current.cursor).toBe('/d/src');
    expect(asked.at(-1)).toBe('reveal /d/src');
  });

  it('extends a range from the anchor with Shift, in both directions', () => {
    const { result, key } = setup();
    key('ArrowDown');
    key('ArrowDown');
    key('ArrowDown', { shiftKey: true });
    key('ArrowDown', { shiftKey: true });
    expect(result.current.marked).toEqual(p('alpha.txt', 'beta.log', 'bravo.md'));
    key('Home', { shiftKey: true });
    expect(result.current.marked).toEqual(p('src', 'alpha.txt'));
    expect(result.current.cursor).toBe('/d/src');
  });

  it('toggles entries with Ctrl+click, ranges with Shift+click from the last plain click', () => {
    const { result, click } = setup();
    click('alpha.txt');
    click('photo.png', { ctrlKey: true });
    expect(result.current.marked).toEqual(p('alpha.txt', 'photo.png'));
    click('alpha.txt', { metaKey: true });
    expect(result.current.marked).toEqual(p('photo.png'));
    // The Ctrl+click on alpha.txt moved the anchor there.
    click('bravo.md', { shiftKey: true });
    expect(result.current.marked).toEqual(p('alpha.txt', 'beta.log', 'bravo.md'));
    expect(result.current.cursor).toBe('/d/bravo.md');
  });

  it('applies Delete to every marked entry when the cursor is among them, else to the cursor alone', () => {
    const { result, asked, key, click } = setup();
    click('beta.log');
    click('photo.png', { ctrlKey: true });
    expect(result.current.targetsOf(ENTRIES[4]!).map((e) => e.name)).toEqual(['beta.log', 'photo.png']);
    expect(result.current.targetsOf(ENTRIES[1]!).map((e) => e.name)).toEqual(['alpha.txt']);
    key('Delete');
    expect(asked.at(-1)).toBe('delete /d/beta.log /d/photo.png');
    click('alpha.txt');
    key('Delete');
    expect(asked.at(-1)).toBe('delete /d/alpha.txt');
  });

  it('activates with Enter, renames with F2, goes up with Backspace, marks all with Ctrl+A', () => {
    const { result, asked, key } = setup();
    key('Enter');
    key('F2');
    expect(asked).toEqual([]);
    key('ArrowDown');
    key('Enter');
    key('F2');
    key('Backspace');
    expect(asked.filter((a) => !a.startsWith('reveal'))).toEqual(['activate /d/src', 'rename /d/src', 'up']);
    key('a', { ctrlKey: true });
    expect(result.current.marked).toEqual(ENTRIES.map((e) => e.path));
    expect(result.current.cursor).toBe('/d/src');
  });

  it('jumps by type-ahead: a prefix typed quickly, a repeated letter steps, a pause starts over', () => {
    const { result, clock, key } = setup();
    key('b');
    expect(result.current.cursor).toBe('/d/beta.log');
    clock.now += 100;
    key('r');
    expect(result.current.cursor).toBe('/d/bravo.md');
    clock.now += 1_000;
    key('b');
    // After the pause "b" is a search of its own, stepping past the cursor.
    expect(result.current.cursor).toBe('/d/beta.log');
    clock.now += 100;
    key('b');
    expect(result.current.cursor).toBe('/d/bravo.md');
  });

  it('leaves keys it does not use to others (space, Ctrl+letters, Tab)', () => {
    const { result, key } = setup();
    expect(key(' ')).toBe(false);
    expect(key('s', { ctrlKey: true })).toBe(false);
    expect(key('Tab')).toBe(false);
    expect(result.current.cursor).toBeNull();
  });
});

describe('rangeOf', () => {
  it('lists the paths between two entries in list order, or the target alone when one is gone', () => {
    expect(rangeOf(ENTRIES, '/d/bravo.md', '/d/alpha.txt')).toEqual(p('alpha.txt', 'beta.log', 'bravo.md'));
    expect(rangeOf(ENTRIES, '/d/gone', '/d/beta.log')).toEqual(p('beta.log'));
  });
});
