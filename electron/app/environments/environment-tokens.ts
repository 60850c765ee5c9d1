// The environments' tokens, kept in the host's SecretStore under one key per environment, never in
// the config file; the UI only learns whether one is stored.
import type { SecretStore } from '../persistence/secret-store';

export class EnvironmentTokens {
  constructor(private readonly secrets: SecretStore) {}

  get(envId: string): Promise<string | null> {
    return this.secrets.get(secretKey(envId));
  }

  /** Whether a token is stored; a store that cannot be read counts as holding none. */
  async has(envId: string): Promise<boolean> {
    return (await this.get(envId).catch(() => null)) !== null;
  }

  set(envId: string, token: string): Promise<void> {
    return this.secrets.set(secretKey(envId), token);
  }

  delete(envId: string): Promise<void> {
    return this.secrets.delete(secretKey(envId));
  }
}

function secretKey(envId: string): string {
  return `environment-token:${envId}`;
}
