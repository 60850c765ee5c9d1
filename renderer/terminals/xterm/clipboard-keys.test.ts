import { describe, expect, it } from 'vitest';
import { clipboardAction } from './clipboard-keys';

const key = (
  key: string,
  mods: Partial<Record<'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey', boolean>> = {},
) => ({
  type: 'keydown',
  key,
  ctrlKey: false,
  shiftKey: false,
  altKey: false,
  metaKey: false,
  ...mods,
});

describe('terminal clipboard keys', () => {
  it('copy with Ctrl+Shift+C or Ctrl+Insert, paste with Ctrl+Shift+V or Shift+Insert', () => {
    expect(clipboardAction(key('C', { ctrlKey: true, shiftKey: true }))).toBe('copy');
    expect(clipboardAction(key('Insert', { ctrlKey: true }))).toBe('copy');
    expect(clipboardAction(key('V', { ctrlKey: true, shiftKey: true }))).toBe('paste');
    expect(clipboardAction(key('Insert', { shiftKey: true }))).toBe('paste');
  });

  it('leaves Ctrl+C and Ctrl+V to the program, and ignores key-up', () => {
    expect(clipboardAction(key('c', { ctrlKey: true }))).toBeNull();
    expect(clipboardAction(key('v', { ctrlKey: true }))).toBeNull();
    expect(clipboardAction({ ...key('C', { ctrlKey: true, shiftKey: true }), type: 'keyup' })).toBeNull();
    expect(clipboardAction(key('C', { ctrlKey: true, shiftKey: true, altKey: true }))).toBeNull();
  });
});
