// The keyboard shortcuts: one table drives the key handler, the menu, the command palette and the
// help dialog. In web mode the browser keeps some keys for itself (Ctrl+Shift+T/W, Ctrl+PgUp/PgDn
// reach no page), so those shortcuts have a web binding, and every list shows the one that works.
import { hostKind, type HostKind } from './host-kind';

export type ShortcutId =
  | 'newTerminal'
  | 'closePane'
  | 'nextTab'
  | 'previousTab'
  | 'splitRight'
  | 'splitDown'
  | 'focusFiles'
  | 'search'
  | 'commandPalette'
  | 'quickSwitch'
  | 'focusPaneLeft'
  | 'focusPaneRight'
  | 'focusPaneUp'
  | 'focusPaneDown'
  | 'maximizePane'
  | 'moveTabLeft'
  | 'moveTabRight';

export interface Shortcut {
  id: ShortcutId;
  label: string;
  /** The binding in the desktop app, e.g. "Ctrl+Shift+T". */
  keys: string;
  /** The binding in a browser tab, where the browser takes `keys`. */
  webKeys?: string;
  /** A second binding that works in both hosts (F1 for the command palette). */
  alsoKeys?: string;
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
  { id: 'commandPalette', label: 'Command palette', keys: 'Ctrl+Shift+P', alsoKeys: 'F1' },
  { id: 'quickSwitch', label: 'Go to environment, terminal or folder', keys: 'Ctrl+P' },
  { id: 'focusPaneLeft', label: 'Focus pane to the left', keys: 'Alt+Left' },
  { id: 'focusPaneRight', label: 'Focus pane to the right', keys: 'Alt+Right' },
  { id: 'focusPaneUp', label: 'Focus pane above', keys: 'Alt+Up' },
  { id: 'focusPaneDown', label: 'Focus pane below', keys: 'Alt+Down' },
  { id: 'maximizePane', label: 'Maximize or restore pane', keys: 'Ctrl+Shift+Enter' },
  // Chromium moves its own tabs with Ctrl+Shift+PageUp/PageDown.
  { id: 'moveTabLeft', label: 'Move tab left', keys: 'Ctrl+Shift+PageUp', webKeys: 'Alt+Shift+PageUp' },
  { id: 'moveTabRight', label: 'Move tab right', keys: 'Ctrl+Shift+PageDown', webKeys: 'Alt+Shift+PageDown' },
];

/** Short key names shown to the user (and Electron's), for what KeyboardEvent.key calls them. */
const KEY_NAMES: Record<string, string> = {
  left: 'arrowleft',
  right: 'arrowright',
  up: 'arrowup',
  down: 'arrowdown',
};

/** The main keys of `shortcut` in this host (or in `host`). */
function mainKeys(shortcut: Shortcut, host: HostKind): string {
  return host === 'web' && shortcut.webKeys ? shortcut.webKeys : shortcut.keys;
}

/** The keys of `shortcut` as shown to the user in this host (or in `host`), e.g. "Ctrl+Shift+P / F1". */
export function keysOf(shortcut: Shortcut, host = hostKind()): string {
  const main = mainKeys(shortcut, host);
  return shortcut.alsoKeys ? `${main} / ${shortcut.alsoKeys}` : main;
}

/** The keys of the shortcut `id` as shown in this host, e.g. for a button's tooltip. */
export function keysOfId(id: ShortcutId): string {
  const shortcut = SHORTCUTS.find((s) => s.id === id);
  return shortcut ? keysOf(shortcut) : '';
}

/** Whether a keydown is the combination `combo` ("Ctrl+Shift+T": modifiers, then one key). */
export function comboMatches(combo: string, e: KeyboardEvent): boolean {
  const parts = combo.split('+');
  const name = parts.pop()!.toLowerCase();
  const key = KEY_NAMES[name] ?? name;
  const mods = new Set(parts.map((p) => p.toLowerCase()));
  // Cmd stands in for Ctrl on macOS.
  if (mods.has('ctrl') !== (e.ctrlKey || e.metaKey)) return false;
  if (mods.has('shift') !== e.shiftKey || mods.has('alt') !== e.altKey) return false;
  return e.key.toLowerCase() === key;
}

export function matchShortcut(e: KeyboardEvent, host = hostKind()): ShortcutId | null {
  const hit = SHORTCUTS.find(
    (s) => comboMatches(mainKeys(s, host), e) || (s.alsoKeys !== undefined && comboMatches(s.alsoKeys, e)),
  );
  return hit?.id ?? null;
}
