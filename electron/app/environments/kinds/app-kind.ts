// What the app layer knows of one environment kind: how its settings are checked before they are
// stored, what "Test connection" checks before the handshake, and how its connects behave (a
// token, a first connect that retries, a host bootstrap with progress and prompts). The registry
// is index.ts beside this file.
import type { EnvironmentKind, SettingsOf } from '../../../../shared/ipc';
import type { TransportSpec } from '../../../client/api';

export interface AppEnvironmentKind<K extends EnvironmentKind> {
  readonly kind: K;
  /** The user adds and removes environments of this kind (false: the one built-in Local). */
  readonly userAdded: boolean;
  /**
   * Valid settings as they are stored (canonical form); throws AppError('invalidInput') or
   * ClientError('invalidArgument') (the dispatcher shows both as invalidInput).
   */
  check(settings: SettingsOf<K>): SettingsOf<K>;
  /** Its environments may carry a bearer token (kept in the secret store, sent only to its origin). */
  readonly usesToken: boolean;
  /** A failed first connect retries by itself: the server may just not be up yet (FirstConnectRetry). */
  readonly retriesFirstConnect: boolean;
  /**
   * Its connect bootstraps a host (log in, probe, install, start): it reports stages and may ask
   * prompts (SshHooks), which the app shows as the connect progress (`sshConnect` of the view).
   */
  readonly bootstrapsHost: boolean;
  /** How long "Test connection" may take (default TEST_CONNECTION_TIMEOUT_MS). */
  readonly testTimeoutMs?: number;
  /** "Test connection"'s checks before the handshake; each failure is a StageFailure. */
  preflight?(spec: TransportSpec, deadline: number): Promise<void>;
}
