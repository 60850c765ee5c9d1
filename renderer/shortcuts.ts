// The keyboard shortcuts: one table drives the key handler, the menu and the help dialog.

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
  keys: string;
  matches: (e: KeyboardEvent) => boolean;
}

const ctrlShift = (key: string) => (e: KeyboardEvent) =>
  (e.ctrlKey || e.metaKey) && e.shiftKey && !e.altKey && e.key.toLowerCase() === key;

export const SHORTCUTS: Shortcut[] = [
  { id: 'newTerminal', label: 'New terminal', keys: 'Ctrl+Shift+T', matches: ctrlShift('t') },
  { id: 'closePane', label: 'Close pane', keys: 'Ctrl+Shift+W', matches: ctrlShift('w') },
  {
    id: 'nextTab',
    label: 'Next tab',
    keys: 'Ctrl+PageDown',
    matches: (e) => e.ctrlKey && e.key === 'PageDown',
  },
  {
    id: 'previousTab',
    label: 'Previous tab',
    keys: 'Ctrl+PageUp',
    matches: (e) => e.ctrlKey && e.key === 'PageUp',
  },
  { id: 'splitRight', label: 'Split right', keys: 'Ctrl+Shift+D', matches: ctrlShift('d') },
  { id: 'splitDown', label: 'Split down', keys: 'Ctrl+Shift+S', matches: ctrlShift('s') },
  { id: 'focusFiles', label: 'Focus file browser', keys: 'Ctrl+Shift+E', matches: ctrlShift('e') },
  { id: 'search', label: 'Search in terminal', keys: 'Ctrl+Shift+F', matches: ctrlShift('f') },
  { id: 'help', label: 'Keyboard shortcuts', keys: 'F1', matches: (e) => e.key === 'F1' },
];

export function matchShortcut(e: KeyboardEvent): ShortcutId | null {
  return SHORTCUTS.find((s) => s.matches(e))?.id ?? null;
}
