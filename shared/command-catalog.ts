// The app's named commands: id, label and keys, and which of them the desktop app's native menu
// shows. The renderer's shortcut table and command registry and the Electron menu all read this one
// catalog, so a command is named and bound once. Keys are written "Ctrl+Shift+T" (Cmd on macOS).

export interface CatalogCommand {
  id: string;
  label: string;
  /** The binding the renderer's key handler answers in the desktop app, e.g. "Ctrl+Shift+T". */
  keys?: string;
  /** The binding in a browser tab, where the browser keeps `keys` for itself. */
  webKeys?: string;
  /** A second binding that works in both hosts (F1 for the command palette). */
  alsoKeys?: string;
  /** Keys handled where the command applies (the editor, a focused tab): shown, never bound globally. */
  keysHint?: string;
}

const COMMANDS = [
  { id: 'newTerminal', label: 'New terminal', keys: 'Ctrl+Shift+T', webKeys: 'Alt+Shift+T' },
  { id: 'closePane', label: 'Close pane', keys: 'Ctrl+Shift+W', webKeys: 'Alt+Shift+W' },
  { id: 'nextTab', label: 'Next tab', keys: 'Ctrl+PageDown', webKeys: 'Alt+PageDown' },
  { id: 'previousTab', label: 'Previous tab', keys: 'Ctrl+PageUp', webKeys: 'Alt+PageUp' },
  { id: 'splitRight', label: 'Split right', keys: 'Ctrl+Shift+D' },
  { id: 'splitDown', label: 'Split down', keys: 'Ctrl+Shift+S' },
  { id: 'focusFiles', label: 'Focus file browser', keys: 'Ctrl+Shift+E' },
  { id: 'search', label: 'Search in terminal', keys: 'Ctrl+Shift+F' },
  { id: 'commandPalette', label: 'Command palette', keys: 'Ctrl+Shift+P', alsoKeys: 'F1' },
  { id: 'quickOpen', label: 'Quick open: a file, environment, terminal or folder', keys: 'Ctrl+P' },
  { id: 'findInFiles', label: 'Find in files', keys: 'Ctrl+Shift+H' },
  { id: 'focusPaneLeft', label: 'Focus pane to the left', keys: 'Alt+Left' },
  { id: 'focusPaneRight', label: 'Focus pane to the right', keys: 'Alt+Right' },
  { id: 'focusPaneUp', label: 'Focus pane above', keys: 'Alt+Up' },
  { id: 'focusPaneDown', label: 'Focus pane below', keys: 'Alt+Down' },
  { id: 'maximizePane', label: 'Maximize or restore pane', keys: 'Ctrl+Shift+Enter' },
  // Chromium moves its own tabs with Ctrl+Shift+PageUp/PageDown.
  { id: 'moveTabLeft', label: 'Move tab left', keys: 'Ctrl+Shift+PageUp', webKeys: 'Alt+Shift+PageUp' },
  { id: 'moveTabRight', label: 'Move tab right', keys: 'Ctrl+Shift+PageDown', webKeys: 'Alt+Shift+PageDown' },
  // Shell integration: the commands a shell marked in the focused pane.
  { id: 'previousCommand', label: 'Terminal: go to the previous command', keys: 'Ctrl+Shift+Up' },
  { id: 'nextCommand', label: 'Terminal: go to the next command', keys: 'Ctrl+Shift+Down' },
  { id: 'addEnvironment', label: 'Add environment…' },
  { id: 'reconnectNow', label: 'Reconnect this environment now' },
  { id: 'editFile', label: 'Edit the selected file' },
  { id: 'newFile', label: 'New file…' },
  { id: 'openFolder', label: 'Open folder… (the workspace of this environment)' },
  { id: 'closeFolder', label: 'Close folder (back to the home folder)' },
  { id: 'saveFile', label: 'Save the file in the editor', keysHint: 'Ctrl+S' },
  { id: 'renameTab', label: 'Rename terminal tab', keysHint: 'F2 (on the tab)' },
  { id: 'connectEnvironment', label: 'Connect this environment' },
  { id: 'disconnectEnvironment', label: 'Disconnect this environment' },
  { id: 'editEnvironment', label: 'Edit this environment…' },
  { id: 'removeEnvironment', label: 'Remove this environment…' },
  { id: 'uninstallFromHost', label: 'Uninstall Tether from this host…' },
  { id: 'interruptProcess', label: 'Interrupt the process in this pane', keysHint: 'Ctrl+C (in the pane)' },
  { id: 'killProcess', label: 'Kill the process in this pane' },
  { id: 'clearTerminal', label: 'Clear terminal' },
  { id: 'selectCommandOutput', label: "Terminal: select the command's output" },
  { id: 'copyCommandOutput', label: "Terminal: copy the command's output" },
  { id: 'rerunCommand', label: 'Terminal: run the command again' },
  { id: 'goToTerminalFolder', label: "Files: go to the terminal's folder" },
  { id: 'forwardPort', label: 'Ports: forward a port…' },
  { id: 'toggleTheme', label: 'Toggle light and dark theme' },
  { id: 'reconnectAll', label: 'Reconnect all' },
  { id: 'settings', label: 'Settings…' },
  { id: 'shortcuts', label: 'Keyboard shortcuts' },
] as const satisfies readonly CatalogCommand[];

export type CommandId = (typeof COMMANDS)[number]['id'];
/** The commands with a global key binding, which the renderer's key handler answers. */
export type ShortcutId = Extract<(typeof COMMANDS)[number], { keys: string }>['id'];

export const COMMAND_CATALOG: readonly (CatalogCommand & { id: CommandId })[] = COMMANDS;

export function catalogCommand(id: CommandId): CatalogCommand {
  // Every CommandId is in COMMANDS by construction of the type.
  return COMMAND_CATALOG.find((c) => c.id === id)!;
}

/** The renderer commands the native menu's View menu offers, in order; null is a separator. */
export const MENU_COMMANDS: readonly (CommandId | null)[] = [
  'commandPalette',
  'quickOpen',
  'findInFiles',
  null,
  'newTerminal',
  'splitRight',
  'splitDown',
  'search',
  'maximizePane',
  'focusPaneLeft',
  'focusPaneRight',
  'focusPaneUp',
  'focusPaneDown',
  null,
  'renameTab',
  'moveTabLeft',
  'moveTabRight',
  null,
  'addEnvironment',
  'settings',
  'shortcuts',
];

/** An Electron accelerator for `keys` as the catalog writes them: Ctrl is Cmd on macOS. */
export function toAccelerator(keys: string): string {
  return keys
    .split('+')
    .map((part) => (part === 'Ctrl' ? 'CmdOrCtrl' : part))
    .join('+');
}
