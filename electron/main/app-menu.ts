// The application menu: the usual roles (so copy/paste and window shortcuts work everywhere) plus
// View items: the renderer's main commands (run there, through the app.menuCommand event) and
// "Reconnect all".
import { Menu, type MenuItemConstructorOptions } from 'electron';

/**
 * Renderer commands the menu offers, by their id in the renderer's command registry. The keys are
 * shown only (registerAccelerator: false): the renderer handles them itself, in Electron and web.
 */
const RENDERER_COMMANDS: { id: string; label: string; keys?: string }[] = [
  { id: 'commandPalette', label: 'Command Palette…', keys: 'CmdOrCtrl+Shift+P' },
  { id: 'quickSwitch', label: 'Go to Environment, Terminal or Folder…', keys: 'CmdOrCtrl+P' },
  { id: 'newTerminal', label: 'New Terminal', keys: 'CmdOrCtrl+Shift+T' },
  { id: 'splitRight', label: 'Split Right', keys: 'CmdOrCtrl+Shift+D' },
  { id: 'splitDown', label: 'Split Down', keys: 'CmdOrCtrl+Shift+S' },
  { id: 'search', label: 'Search in Terminal', keys: 'CmdOrCtrl+Shift+F' },
  { id: 'maximizePane', label: 'Maximize or Restore Pane', keys: 'CmdOrCtrl+Shift+Enter' },
  { id: 'focusPaneLeft', label: 'Focus Pane to the Left', keys: 'Alt+Left' },
  { id: 'focusPaneRight', label: 'Focus Pane to the Right', keys: 'Alt+Right' },
  { id: 'focusPaneUp', label: 'Focus Pane Above', keys: 'Alt+Up' },
  { id: 'focusPaneDown', label: 'Focus Pane Below', keys: 'Alt+Down' },
  { id: 'renameTab', label: 'Rename Terminal Tab' },
  { id: 'moveTabLeft', label: 'Move Tab Left', keys: 'CmdOrCtrl+Shift+PageUp' },
  { id: 'moveTabRight', label: 'Move Tab Right', keys: 'CmdOrCtrl+Shift+PageDown' },
  { id: 'addEnvironment', label: 'Add Environment…' },
  { id: 'settings', label: 'Settings…' },
  { id: 'shortcuts', label: 'Keyboard Shortcuts' },
];

export function installMenu(actions: { reconnectAll: () => void; runCommand: (id: string) => void }): void {
  const mac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        ...RENDERER_COMMANDS.map((c): MenuItemConstructorOptions => ({
          label: c.label,
          ...(c.keys ? { accelerator: c.keys, registerAccelerator: false } : {}),
          click: () => actions.runCommand(c.id),
        })),
        { type: 'separator' },
        { label: 'Reconnect All', accelerator: 'CmdOrCtrl+Shift+R', click: () => actions.reconnectAll() },
        { type: 'separator' },
        { role: 'reload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
