// The native menu and the command registry share ids: every command the catalog names (and so every
// item of the desktop app's menu) must be one the renderer's registry can run.
import { describe, expect, it } from 'vitest';
import { COMMAND_CATALOG, MENU_COMMANDS } from '../../shared/command-catalog';
import { appCommands } from './commands';

describe('the command catalog against the registry', () => {
  const registered = new Set(appCommands().map((c) => c.id));

  it('resolves every menu command id in the renderer registry', () => {
    const menuIds = MENU_COMMANDS.filter((id) => id !== null);
    expect(menuIds.length).toBeGreaterThan(0);
    expect(menuIds.filter((id) => !registered.has(id))).toEqual([]);
  });

  it('registers every catalog command once, with the catalog label', () => {
    const commands = appCommands();
    for (const entry of COMMAND_CATALOG) {
      const found = commands.filter((c) => c.id === entry.id);
      expect(found, entry.id).toHaveLength(1);
      expect(found[0]!.label).toBe(entry.label);
    }
  });
});
