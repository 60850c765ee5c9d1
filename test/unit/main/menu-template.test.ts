// The native menu's template, built as a pure function: its View items run the catalog's commands
// by id, show the catalog's keys as Electron accelerators (without registering them), and keep the
// host's own Reconnect All.
import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { catalogCommand, MENU_COMMANDS, toAccelerator } from '../../../shared/command-catalog';
import { menuTemplate } from '../../../electron/main/menu-template';

function viewItems(platform: NodeJS.Platform, ran: string[], reconnected: number[] = []) {
  const template = menuTemplate(
    { runCommand: (id) => ran.push(id), reconnectAll: () => reconnected.push(1) },
    platform,
  );
  const view = template.find((m) => m.label === 'View');
  return { template, items: (view?.submenu ?? []) as MenuItemConstructorOptions[] };
}

function click(item: MenuItemConstructorOptions): void {
  (item.click as () => void)();
}

describe('toAccelerator', () => {
  it('turns Ctrl into CmdOrCtrl and keeps the other parts', () => {
    expect(toAccelerator('Ctrl+Shift+T')).toBe('CmdOrCtrl+Shift+T');
    expect(toAccelerator('Ctrl+P')).toBe('CmdOrCtrl+P');
    expect(toAccelerator('Alt+Left')).toBe('Alt+Left');
    expect(toAccelerator('Ctrl+Shift+PageUp')).toBe('CmdOrCtrl+Shift+PageUp');
  });
});

describe('menuTemplate', () => {
  it('offers the catalog menu commands in order, each running its own id with its label and keys', () => {
    const ran: string[] = [];
    const { items } = viewItems('linux', ran);
    const commandItems = items.slice(0, MENU_COMMANDS.length);
    commandItems.forEach((item, index) => {
      const id = MENU_COMMANDS[index]!;
      if (id === null) return expect(item.type).toBe('separator');
      const { label, keys } = catalogCommand(id);
      expect(item.label).toBe(label);
      expect(item.accelerator).toBe(keys ? toAccelerator(keys) : undefined);
      // The renderer answers the keys itself; a registered accelerator would take them from it.
      if (keys) expect(item.registerAccelerator).toBe(false);
      click(item);
      expect(ran.at(-1)).toBe(id);
    });
    expect(ran).toEqual(MENU_COMMANDS.filter((id) => id !== null));
  });

  it('shows New terminal as CmdOrCtrl+Shift+T and keeps Reconnect All for the host', () => {
    const ran: string[] = [];
    const reconnected: number[] = [];
    const { items } = viewItems('linux', ran, reconnected);
    expect(items.find((i) => i.label === 'New terminal')?.accelerator).toBe('CmdOrCtrl+Shift+T');
    const reconnect = items.find((i) => i.label === 'Reconnect all')!;
    expect(reconnect.accelerator).toBe('CmdOrCtrl+Shift+R');
    click(reconnect);
    expect(reconnected).toEqual([1]);
    expect(ran).toEqual([]);
  });

  it('has the app menu on macOS only', () => {
    expect(viewItems('darwin', []).template[0]).toEqual({ role: 'appMenu' });
    expect(viewItems('linux', []).template.some((m) => m.role === 'appMenu')).toBe(false);
  });
});
