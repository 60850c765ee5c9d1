// The persisted configuration at run time: the current UI settings, and saving them together with
// every environment's stored entry through the ConfigStore (one file, written atomically).
import type { Settings } from '../../../shared/ipc';
import { CONFIG_VERSION, type ConfigStore, type StoredEnvironment } from './config-store';

export class AppConfig {
  constructor(
    private readonly store: ConfigStore,
    private current: Settings,
    private readonly environments: () => StoredEnvironment[],
  ) {}

  get file(): string {
    return this.store.file;
  }

  get settings(): Settings {
    return { ...this.current };
  }

  async updateSettings(patch: Partial<Settings>): Promise<Settings> {
    this.current = { ...this.current, ...patch };
    await this.save();
    return this.settings;
  }

  save(): Promise<void> {
    return this.store.save({
      version: CONFIG_VERSION,
      environments: this.environments(),
      settings: this.current,
    });
  }
}
