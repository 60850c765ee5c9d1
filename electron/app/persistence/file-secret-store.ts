// A SecretStore kept in one JSON file readable only by the user (mode 0600), for web mode, where no
// OS keychain is available. An optional sealer lets Electron encrypt the values (safeStorage); the
// store's protection is the sealer's, or "not encrypted" without one.
import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { AppError } from '../app-error';
import { writeFileAtomic } from './atomic-file';
import type { SecretProtection, SecretStore } from './secret-store';

const SecretsFile = z.object({ version: z.literal(1), secrets: z.record(z.string(), z.string()) });

export interface SecretSealer {
  /** What sealing really achieves on this machine (it may be no encryption at all). */
  readonly protection: SecretProtection;
  seal(plain: string): Promise<string>;
  unseal(sealed: string): Promise<string>;
}

export class FileSecretStore implements SecretStore {
  private cache: Map<string, string> | null = null;
  private chain: Promise<unknown> = Promise.resolve();

  readonly protection: SecretProtection;

  constructor(
    private readonly file: string,
    private readonly sealer?: SecretSealer,
  ) {
    this.protection = sealer?.protection ?? {
      encrypted: false,
      description: `not encrypted, in a file readable only by you (${file}, mode 0600)`,
      warning: null,
    };
  }

  async get(key: string): Promise<string | null> {
    const sealed = (await this.load()).get(key);
    if (sealed === undefined) return null;
    return this.sealer ? this.sealer.unseal(sealed) : sealed;
  }

  async set(key: string, value: string): Promise<void> {
    const sealed = this.sealer ? await this.sealer.seal(value) : value;
    return this.mutate((map) => map.set(key, sealed));
  }

  delete(key: string): Promise<void> {
    return this.mutate((map) => map.delete(key));
  }

  private mutate(change: (map: Map<string, string>) => void): Promise<void> {
    const run = this.chain.then(async () => {
      const map = await this.load();
      change(map);
      const body = { version: 1, secrets: Object.fromEntries(map) };
      await writeFileAtomic(this.file, JSON.stringify(body, null, 2), 0o600);
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async load(): Promise<Map<string, string>> {
    if (this.cache) return this.cache;
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return (this.cache = new Map());
      throw error;
    }
    const parsed = SecretsFile.safeParse(safeJson(text));
    if (!parsed.success) {
      throw new AppError(
        'internal',
        `The token file ${this.file} is unreadable. Move it away and enter the tokens again.`,
      );
    }
    return (this.cache = new Map(Object.entries(parsed.data.secrets)));
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
