// User settings (theme, trusted link hosts, and the terminal's: font, cursor, scheme, bell, …),
// mirrored from the AppService.
import { create } from 'zustand';
import { DEFAULT_TERMINAL_SETTINGS, type Settings } from '../../shared/ipc';

export const DEFAULT_SETTINGS: Settings = {
  scrollback: 10_000,
  copyOnSelect: false,
  fontSize: 13,
  theme: 'system',
  trustedLinkHosts: [],
  ...DEFAULT_TERMINAL_SETTINGS,
};

interface SettingsState {
  settings: Settings;
  set: (settings: Settings) => void;
}

export const useSettings = create<SettingsState>((set) => ({
  settings: DEFAULT_SETTINGS,
  set: (settings) => set({ settings }),
}));
