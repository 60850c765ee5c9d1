// Every environment of the app by id, and the one owner of that map: lookups that fail with a clear
// notFound, an environment's connected client or file system, and reconnecting them.
import type { ExecServerClientApi, RemoteFileSystemApi } from '../../client/api';
import { notFound } from '../app-error';
import type { StoredEnvironment } from '../persistence/config-store';
import type { EnvironmentRuntime } from './environment-runtime';
import type { ProcessRuntime } from '../processes/process-runtime';
import { RetrySpreader } from './retry-spread';

export class EnvironmentRegistry {
  private readonly byId = new Map<string, EnvironmentRuntime>();
  private readonly retries = new RetrySpreader();

  all(): EnvironmentRuntime[] {
    return [...this.byId.values()];
  }

  find(id: string): EnvironmentRuntime | undefined {
    return this.byId.get(id);
  }

  get(id: string): EnvironmentRuntime {
    const env = this.byId.get(id);
    if (!env) throw notFound(`The environment ${id}`);
    return env;
  }

  add(env: EnvironmentRuntime): void {
    this.byId.set(env.id, env);
  }

  delete(id: string): void {
    this.byId.delete(id);
  }

  /** What the config file keeps of every environment, in the order they were added. */
  stored(): StoredEnvironment[] {
    return this.all().map((env) => env.stored);
  }

  process(envId: string, processId: string): ProcessRuntime {
    const runtime = this.get(envId).processes.get(processId);
    if (!runtime) throw notFound(`The process ${processId}`);
    return runtime;
  }

  async connectedClient(envId: string): Promise<ExecServerClientApi> {
    return this.get(envId).connectedClient();
  }

  /** The file system of an environment, once its client is connected. */
  async connectedFs(envId: string): Promise<RemoteFileSystemApi> {
    return (await this.connectedClient(envId)).fs;
  }

  /** Retries now: skips the backoff of a reconnecting client, or connects an enabled idle one. */
  reconnect(env: EnvironmentRuntime): void {
    if (env.currentClient) env.reconnectNow();
    else if (env.stored.enabled) void env.connect();
  }

  reconnectAll(): void {
    this.spreadOverEnabled((env) => this.reconnect(env));
  }

  /**
   * Runs `retry` for every enabled environment, spread over a window (retry-spread.ts). Each run
   * looks its environment up again: it may have gone, or been disabled, meanwhile.
   */
  private spreadOverEnabled(retry: (env: EnvironmentRuntime) => void): void {
    const ids = this.all()
      .filter((env) => env.stored.enabled)
      .map((env) => env.id);
    this.retries.spread(
      ids.map((id) => () => {
        const env = this.byId.get(id);
        if (env?.stored.enabled) retry(env);
      }),
    );
  }

  /**
   * A sign the network may be back (wake from sleep, screen unlock, online, window focus): every
   * reconnecting client makes its next attempt now instead of at its backoff step. Unlike
   * reconnectAll, a failed or expired environment is left as it is: starting a new session is the
   * user's call, so a focus click never replaces what the expired state is showing. The exception
   * is a first connect that failed (nothing to replace), which FirstConnectRetry retries anyway.
   */
  networkMayBeBack(): void {
    this.spreadOverEnabled((env) => {
      if (env.currentClient?.state.kind === 'reconnecting') env.reconnectNow();
      // A first connect that failed has no session to replace: its planned retry runs now.
      else env.networkMayBeBack();
    });
  }

  /** Drops the retries a sign spread and that have not run yet (the app is closing). */
  cancelRetries(): void {
    this.retries.cancel();
  }
}
