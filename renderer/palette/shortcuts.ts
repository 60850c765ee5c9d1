// The keyboard shortcuts, taken from the shared command catalog: they drive the key handler, the
// command palette and the help dialog. In web mode the browser keeps some keys for itself
// (Ctrl+Shift+T/W, Ctrl+PgUp/PgDn reach no page), so those shortcuts have a web binding, and every
// list shows the one that works.
import { COMMAND_CATALOG, type CatalogCommand, type ShortcutId } from '../../shared/command-catalog';
import { hostKind, type HostKind } from '../ipc/host-kind';

export type { ShortcutId };

export interface Shortcut extends CatalogCommand {
  id: ShortcutId;
  /** The binding in the desktop app, e.g. "Ctrl+Shift+T". */
  keys: string;
}

function isShortcut(command: CatalogCommand): command is Shortcut {
  return command.keys !== undefined;
}

/** The catalog's commands with a global binding, in its order. */
export const SHORTCUTS: Shortcut[] = COMMAND_CATALOG.filter(isShortcut);

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
