// Saves settings through the AppService and applies them to every open terminal.
import type { CommandInput } from '../../shared/ipc';
import { invoke } from '../ipc/ipc-client';
import { useSettings } from './settings-store';
import { applySettingsToAll } from '../terminals/xterm/terminal-registry';

export async function saveSettings(patch: CommandInput<'settings.update'>): Promise<void> {
  const settings = await invoke('settings.update', patch);
  useSettings.getState().set(settings);
  applySettingsToAll(settings);
}
