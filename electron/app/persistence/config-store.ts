// The app's persistent configuration (environments and UI settings): one versioned JSON file in
// the user-data directory, validated with zod, written atomically. A file that cannot be read is
// moved aside (never silently replaced) and the reason is reported to the UI.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_SETTINGS,
  EnvironmentId,
  EnvironmentSettings,
  Settings,
  TERMINAL_SETTINGS_WITH_DEFAULTS,
  TerminalProfile,
  StoredForward,
} from '../../../shared/ipc';
import { LOCAL_ENVIRONMENT_COLOUR } from '../../../shared/environment-colours';
import { writeFileAtomic } from './atomic-file';
import { errorMessage } from '../../../shared/error-message';

export const CONFIG_FILE_NAME = 'environments.json';
export const CONFIG_VERSION = 1;
export const LOCAL_ENVIRONMENT_ID = 'local';

export const StoredEnvironment = z.object({
  id: EnvironmentId,
  name: z.string().min(1).max(100),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  settings: EnvironmentSettings,
  enabled: z.boolean(),
  /** The workspace folder (environments.setWorkspaceFolder); absent: the home folder. */
  workspaceFolder: z.string().min(1).max(4096).optional(),
  /** What its new shells start as; absent (every file from before profiles): the empty profile. */
  terminalProfile: TerminalProfile.optional(),
  /** Its port forwards, started again at the next launch; absent: none. */
  forwards: z.array(StoredForward).max(256).optional(),
});
export type StoredEnvironment = z.infer<typeof StoredEnvironment>;

const ConfigFile = z.object({
  version: z.literal(CONFIG_VERSION),
  environments: z.array(StoredEnvironment),
  // A file written before a setting existed still loads, with that setting at its default.
  settings: Settings.extend({
    trustedLinkHosts: Settings.shape.trustedLinkHosts.default([]),
    ...TERMINAL_SETTINGS_WITH_DEFAULTS,
  }),
});
export type AppConfig = z.infer<typeof ConfigFile>;

function defaultLocalEnvironment(): StoredEnvironment {
  return {
    id: LOCAL_ENVIRONMENT_ID,
    name: 'Local',
    color: LOCAL_ENVIRONMENT_COLOUR,
    settings: { kind: 'local' },
    enabled: true,
  };
}

export interface LoadedConfig {
  config: AppConfig;
  /** Set when the file existed but could not be used; says where the old file went. */
  problem: string | null;
}

export class ConfigStore {
  readonly file: string;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, CONFIG_FILE_NAME);
  }

  async load(): Promise<LoadedConfig> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return { config: withLocal(null), problem: null };
      throw error;
    }
    const reason = describeProblem(text);
    if (reason === null) return { config: withLocal(ConfigFile.parse(JSON.parse(text))), problem: null };
    const aside = `${this.file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await fs.rename(this.file, aside);
    return {
      config: withLocal(null),
      problem:
        `Your environments file could not be read (${reason}), so Tether started with only the Local ` +
        `environment. The old file was kept as ${aside}; fix it and move it back, or add the environments again.`,
    };
  }

  /** Saves the whole config; saves are serialised so the last call wins on disk. */
  save(config: AppConfig): Promise<void> {
    const run = this.chain.then(() => writeFileAtomic(this.file, JSON.stringify(config, null, 2) + '\n'));
    this.chain = run.catch(() => undefined);
    return run;
  }
}

function describeProblem(text: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return `it is not valid JSON: ${errorMessage(error)}`;
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > CONFIG_VERSION) {
    return `it was written by a newer Tether (format version ${version})`;
  }
  const parsed = ConfigFile.safeParse(json);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return `unexpected content at ${issue?.path.join('.') || 'the top level'}: ${issue?.message ?? 'invalid'}`;
}

function withLocal(config: AppConfig | null): AppConfig {
  const base = config ?? { version: CONFIG_VERSION, environments: [], settings: DEFAULT_SETTINGS };
  const rest = base.environments.filter((e) => e.id !== LOCAL_ENVIRONMENT_ID);
  const stored = base.environments.find((e) => e.id === LOCAL_ENVIRONMENT_ID && e.settings.kind === 'local');
  return { ...base, environments: [stored ?? defaultLocalEnvironment(), ...rest] };
}
