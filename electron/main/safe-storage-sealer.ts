// Encrypts environment tokens with Electron's safeStorage before they reach the token file, and
// says honestly what that achieves here: on Linux without a keyring Electron falls back to its
// "basic_text" store (a fixed, public key), which is obfuscation, not encryption.
import { safeStorage } from 'electron';
import { AppError } from '../app/app-error';
import type { SecretSealer } from '../app/persistence/file-secret-store';
import type { SecretProtection } from '../app/persistence/secret-store';

/** The part of Electron's safeStorage this module uses (a parameter, so the choice can be tested). */
export type SafeStorageApi = Pick<
  typeof safeStorage,
  'isAsyncEncryptionAvailable' | 'getSelectedStorageBackend' | 'encryptStringAsync' | 'decryptStringAsync'
>;

/** Linux backends that keep the key in a real keyring; anything else is not encryption. */
const LINUX_KEYRINGS = new Set(['gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6']);

const NO_KEYCHAIN_FIX =
  'Install or unlock a keyring (e.g. gnome-keyring or KWallet) and restart Tether, ' +
  'or use a Command environment with SSH keys instead of a token.';

/** Must run after the app is ready (before it, Linux reports the backend as "unknown"). */
export async function safeStorageSealer(
  storage: SafeStorageApi = safeStorage,
  platform: NodeJS.Platform = process.platform,
): Promise<SecretSealer> {
  const available = await storage.isAsyncEncryptionAvailable();
  const backend = platform === 'linux' ? storage.getSelectedStorageBackend() : null;
  const protection = protectionOf(available, backend);
  return {
    protection,
    async seal(plain) {
      if (!available) throw new AppError('unsupported', protection.warning ?? 'Tokens cannot be stored.');
      return (await storage.encryptStringAsync(plain)).toString('base64');
    },
    async unseal(sealed) {
      return (await storage.decryptStringAsync(Buffer.from(sealed, 'base64'))).result;
    },
  };
}

function protectionOf(available: boolean, linuxBackend: string | null): SecretProtection {
  if (!available) {
    return {
      encrypted: false,
      description: 'not stored: no OS keychain is available to encrypt them',
      warning: `No OS keychain is available to encrypt tokens, so Tether will not store any. ${NO_KEYCHAIN_FIX}`,
    };
  }
  if (linuxBackend !== null && !LINUX_KEYRINGS.has(linuxBackend)) {
    // basic_text (or an undetermined backend): sealing still runs, so tokens written now stay
    // readable once a keyring appears, but it must not be called encryption.
    return {
      encrypted: false,
      description: `not encrypted: no OS keychain was found (Electron's "${linuxBackend}" store), so tokens are kept in tokens.json (mode 0600) with only a fixed, publicly known key`,
      warning: `No OS keychain was found, so tokens you save are not encrypted: they are kept in tokens.json, readable only by you, but anyone who can read that file can recover them. ${NO_KEYCHAIN_FIX}`,
    };
  }
  return {
    encrypted: true,
    description: `encrypted with the OS keychain${linuxBackend ? ` (${linuxBackend})` : ''}`,
    warning: null,
  };
}
