import { describe, expect, it } from 'vitest';
import { comboMatches, keysOf, keysOfId, matchShortcut, SHORTCUTS } from './shortcuts';
import { hostKind, setHostKind } from '../ipc/host-kind';

/** Keys Chromium keeps for itself: a page never sees them (they open, close or switch tabs). */
const BROWSER_RESERVED = [
  'Ctrl+T',
  'Ctrl+Shift+T',
  'Ctrl+W',
  'Ctrl+Shift+W',
  'Ctrl+N',
  'Ctrl+Shift+N',
  'Ctrl+Tab',
  'Ctrl+Shift+Tab',
  'Ctrl+PageUp',
  'Ctrl+PageDown',
  'Ctrl+Shift+PageUp',
  'Ctrl+Shift+PageDown',
  'Ctrl+Shift+Q',
];

const keydown = (key: string, mods: { ctrlKey?: boolean; shiftKey?: boolean; altKey?: boolean } = {}) =>
  new KeyboardEvent('keydown', { key, ...mods });

describe('shortcuts', () => {
  it('in web mode, bind no key the browser keeps for itself', () => {
    for (const s of SHORTCUTS) expect(BROWSER_RESERVED, s.label).not.toContain(keysOf(s, 'web'));
  });

  it('in web mode, answer to their web keys (Alt+Shift+T opens a terminal)', () => {
    expect(matchShortcut(keydown('T', { altKey: true, shiftKey: true }), 'web')).toBe('newTerminal');
    expect(matchShortcut(keydown('PageDown', { altKey: true }), 'web')).toBe('nextTab');
    expect(matchShortcut(keydown('T', { ctrlKey: true, shiftKey: true }), 'web')).toBeNull();
  });

  it('in the desktop app, keep the usual terminal keys', () => {
    expect(matchShortcut(keydown('T', { ctrlKey: true, shiftKey: true }), 'electron')).toBe('newTerminal');
    expect(matchShortcut(keydown('PageUp', { ctrlKey: true }), 'electron')).toBe('previousTab');
  });

  it('match modifiers exactly', () => {
    expect(comboMatches('Ctrl+Shift+F', keydown('F', { ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(comboMatches('Ctrl+Shift+F', keydown('F', { ctrlKey: true, shiftKey: true, altKey: true }))).toBe(
      false,
    );
    expect(comboMatches('F1', keydown('F1'))).toBe(true);
  });

  it('name arrow keys as the user reads them (Alt+Left is the ArrowLeft key)', () => {
    expect(matchShortcut(keydown('ArrowLeft', { altKey: true }), 'web')).toBe('focusPaneLeft');
    expect(matchShortcut(keydown('ArrowDown', { altKey: true }), 'electron')).toBe('focusPaneDown');
    expect(matchShortcut(keydown('ArrowLeft', { altKey: true, shiftKey: true }), 'web')).toBeNull();
    expect(matchShortcut(keydown('PageUp', { altKey: true, shiftKey: true }), 'web')).toBe('moveTabLeft');
    expect(matchShortcut(keydown('Enter', { ctrlKey: true, shiftKey: true }), 'web')).toBe('maximizePane');
  });

  it('show, by id, the keys that work in this host (tooltips say Alt+Shift+T in web mode)', () => {
    const before = hostKind();
    try {
      setHostKind('web');
      expect(keysOfId('newTerminal')).toBe('Alt+Shift+T');
      expect(keysOfId('maximizePane')).toBe('Ctrl+Shift+Enter');
      setHostKind('electron');
      expect(keysOfId('newTerminal')).toBe('Ctrl+Shift+T');
    } finally {
      setHostKind(before);
    }
  });
});
