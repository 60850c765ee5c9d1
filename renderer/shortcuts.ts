// The keyboard shortcuts: one table drives the key handler, the menu, the command palette and the
// help dialog. In web mode the browser keeps some keys for itself (Ctrl+Shift+T/W, Ctrl+PgUp/PgDn
// reach no page), so those shortcuts have a web binding, and every list shows the one that works.
import { hostKind } from './host-kind';

export type ShortcutId =
  | 'newTerminal'
  | 'closePane'
  | 'nextTab'
  | 'previousTab'
  | 'splitRight'
  | 'splitDown'
  | 'focusFiles'
  | 'search'
  | 'help';

export interface Shortcut {
  id: ShortcutId;
  label: string;
  /** The binding in the desktop app, e.g. "Ctrl+Shift+T". */
  keys: string;
  /** The binding in a browser tab, where the browser takes `keys`. */
  webKeys?: string;
}

export const SHORTCUTS: Shortcut[] = [
  { id: 'newTerminal', label: 'New terminal', keys: 'Ctrl+Shift+T', webKeys: 'Alt+Shift+T' },
  { id: 'closePane', label: 'Close pane', keys: 'Ctrl+Shift+W', webKeys: 'Alt+Shift+W' },
  { id: 'nextTab', label: 'Next tab', keys: 'Ctrl+PageDown', webKeys: 'Alt+PageDown' },
  { id: 'previousTab', label: 'Previous tab', keys: 'Ctrl+PageUp', webKeys: 'Alt+PageUp' },
  { id: 'splitRight', label: 'Split right', keys: 'Ctrl+Shift+D' },
  { id: 'splitDown', label: 'Split down', keys: 'Ctrl+Shift+S' },
  { id: 'focusFiles', label: 'Focus file browser', keys: 'Ctrl+Shift+E' },
  { id: 'search', label: 'Search in terminal', keys: 'Ctrl+Shift+F' },
  { id: 'help', label: 'Keyboard shortcuts', keys: 'F1' },
];

/** The keys of `shortcut` in this host (or in `host`). */
export function keysOf(shortcut: Shortcut, host = hostKind()): string {
  return host === 'web' && shortcut.webKeys ? shortcut.webKeys : shortcut.keys;
}

/** Whether a keydown is the combination `combo` ("Ctrl+Shift+T": modifiers, then one key). */
export function comboMatches(combo: string, e: KeyboardEvent): boolean {
  const parts = combo.split('+');
  const key = parts.pop()!.toLowerCase();
  const mods = new Set(parts.map((p) => p.toLowerCase()));
  // Cmd stands in for Ctrl on macOS.
  if (mods.has('ctrl') !== (e.ctrlKey || e.metaKey)) return false;
  if (mods.has('shift') !== e.shiftKey || mods.has('alt') !== e.altKey) return false;
  return e.key.toLowerCase() === key;
}

export function matchShortcut(e: KeyboardEvent, host = hostKind()): ShortcutId | null {
  return SHORTCUTS.find((s) => comboMatches(keysOf(s, host), e))?.id ?? null;
}
