// Encrypts environment tokens with Electron's safeStorage (the OS keychain) before they reach the
// token file. Without a usable keychain, storing a token fails with a clear message instead of
// falling back to plain text.
import { safeStorage } from 'electron';
import { AppError } from '../app/app-error';
import type { SecretSealer } from '../app/file-secret-store';

export const safeStorageSealer: SecretSealer = {
  async seal(plain) {
    if (!(await safeStorage.isAsyncEncryptionAvailable())) {
      throw new AppError(
        'unsupported',
        'No OS keychain is available to encrypt the token, so Tether will not store it. ' +
          'Unlock or install a keychain (e.g. gnome-keyring), or use a Command environment with SSH keys.',
      );
    }
    return (await safeStorage.encryptStringAsync(plain)).toString('base64');
  },
  async unseal(sealed) {
    return (await safeStorage.decryptStringAsync(Buffer.from(sealed, 'base64'))).result;
  },
};
