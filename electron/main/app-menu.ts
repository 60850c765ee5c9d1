// Installs the application menu (built in menu-template.ts from the shared command catalog).
import { Menu } from 'electron';
import { menuTemplate, type MenuActions } from './menu-template';

export function installMenu(actions: MenuActions): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(actions, process.platform)));
}
