// Where environment tokens live. The app never writes a token into its config file: it hands it
// to a SecretStore, implemented with Electron's safeStorage (electron/main) or a 0600 file (web).
// Each store says truthfully how it protects what it holds, so the UI never claims encryption
// that is not there.
export interface SecretProtection {
  /** Whether values are encrypted at rest; false means only the file's permissions protect them. */
  readonly encrypted: boolean;
  /** How values are kept, in words for the UI, e.g. "encrypted with the OS keychain (kwallet6)". */
  readonly description: string;
  /** Set when the host meant to encrypt but cannot: the user is told once per launch. */
  readonly warning: string | null;
}

export interface SecretStore {
  readonly protection: SecretProtection;
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}
