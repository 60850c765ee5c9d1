// The application menu: the usual roles (so copy/paste and window shortcuts work everywhere) plus
// View items and "Reconnect all".
import { Menu, type MenuItemConstructorOptions } from 'electron';

export function installMenu(actions: { reconnectAll: () => void }): void {
  const mac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
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
