// User settings (scrollback, copy-on-select, font size, theme, trusted link hosts), mirrored from
// the AppService.
import { create } from 'zustand';
import type { Settings } from '../../shared/ipc';

export const DEFAULT_SETTINGS: Settings = {
  scrollback: 10_000,
  copyOnSelect: false,
  fontSize: 13,
  theme: 'system',
  trustedLinkHosts: [],
};

interface SettingsState {
  settings: Settings;
  set: (settings: Settings) => void;
}

export const useSettings = create<SettingsState>((set) => ({
  settings: DEFAULT_SETTINGS,
  set: (settings) => set({ settings }),
}));
