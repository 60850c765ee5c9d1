// Where environment tokens live. The app never writes a token into its config file: it hands it
// to a SecretStore, implemented with Electron's safeStorage (electron/main) or a 0600 file (web).
export interface SecretStore {
  /** Human-readable description for docs and messages, e.g. "an encrypted file (safeStorage)". */
  readonly description: string;
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}
