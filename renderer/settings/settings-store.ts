// User settings (theme, trusted link hosts, and the terminal's: font, cursor, scheme, bell, …),
// mirrored from the AppService.
import { create } from 'zustand';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/ipc';

// The renderer's tests and stores take the defaults from here.
export { DEFAULT_SETTINGS };

interface SettingsState {
  settings: Settings;
  set: (settings: Settings) => void;
}

export const useSettings = create<SettingsState>((set) => ({
  settings: DEFAULT_SETTINGS,
  set: (settings) => set({ settings }),
}));
