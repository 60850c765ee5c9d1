// How tokens are kept, told truthfully: a secret store that cannot really encrypt (Electron on
// Linux without a keyring) puts a warning on the notice board and `app.tokenStorage` says
// "not encrypted"; the web host's plain 0600 file says so too, without a warning.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSecretStore, type SecretSealer } from '../../../electron/app/persistence/file-secret-store';
import { createHarness, type Harness } from './app-harness';

const WARNING = 'No OS keychain was found, so tokens you save are not encrypted.';

/** A sealer as Electron's basic_text fallback behaves: it transforms, but it is not encryption. */
const obfuscatingSealer: SecretSealer = {
  protection: { encrypted: false, description: 'not encrypted: no OS keychain was found', warning: WARNING },
  seal: async (plain) => Buffer.from(plain).toString('base64'),
  unseal: async (sealed) => Buffer.from(sealed, 'base64').toString(),
};

let harness: Harness | null = null;
let dir: string | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('token storage', () => {
  it('warns once at start and reports "not encrypted" when the store cannot encrypt', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tether-secrets-'));
    harness = await createHarness({
      autoConnect: false,
      secrets: new FileSecretStore(path.join(dir, 'tokens.json'), obfuscatingSealer),
    });
    const notices = await harness.invoke('app.notices', {});
    expect(notices.filter((n) => n.message === WARNING)).toEqual([
      expect.objectContaining({ level: 'warning' }),
    ]);
    expect(await harness.invoke('app.tokenStorage', {})).toEqual({
      encrypted: false,
      description: 'not encrypted: no OS keychain was found',
    });
  });

  it('reports the web host plain file as not encrypted, with no warning to dismiss', async () => {
    harness = await createHarness({ autoConnect: false });
    expect(await harness.invoke('app.notices', {})).toEqual([]);
    const storage = await harness.invoke('app.tokenStorage', {});
    expect(storage.encrypted).toBe(false);
    expect(storage.description).toContain('mode 0600');
  });
});
