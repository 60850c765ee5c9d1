// The application menu's template, built from the shared command catalog: the usual roles (so
// copy/paste and window shortcuts work everywhere) plus View items running renderer commands and
// "Reconnect all". Pure (Electron's types only), so it is tested without Electron.
import type { MenuItemConstructorOptions } from 'electron';
import { catalogCommand, MENU_COMMANDS, toAccelerator } from '../../shared/command-catalog';

export interface MenuActions {
  reconnectAll: () => void;
  /** Runs the renderer command `id` (the renderer owns the command registry). */
  runCommand: (id: string) => void;
}

/** Reconnect All is the host's own item: the renderer does not bind Ctrl+Shift+R (a browser reload). */
const RECONNECT_ALL_KEYS = 'Ctrl+Shift+R';

export function menuTemplate(actions: MenuActions, platform: NodeJS.Platform): MenuItemConstructorOptions[] {
  const rendererItems = MENU_COMMANDS.map((id): MenuItemConstructorOptions => {
    if (id === null) return { type: 'separator' };
    const { label, keys } = catalogCommand(id);
    return {
      label,
      // Shown only: the renderer answers its keys itself, in Electron and in a browser tab alike.
      ...(keys ? { accelerator: toAccelerator(keys), registerAccelerator: false } : {}),
      click: () => actions.runCommand(id),
    };
  });
  return [
    ...(platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        ...rendererItems,
        { type: 'separator' },
        {
          label: catalogCommand('reconnectAll').label,
          accelerator: toAccelerator(RECONNECT_ALL_KEYS),
          click: () => actions.reconnectAll(),
        },
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
}
