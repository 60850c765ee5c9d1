// One environment at run time: its stored config, its client (while enabled), the link state and
// health the UI sees, and its processes. Health-only changes reach the UI throttled; state and
// config changes go out at once. An environment whose kind bootstraps a host (SSH) also has its
// connect progress and asks its prompts through the app's prompt broker.
import {
  EMPTY_TERMINAL_PROFILE,
  type EnvironmentView,
  type HealthView,
  type LinkState,
} from '../../../shared/ipc';
import type { ConnectionState, ExecServerClientApi, HealthSnapshot, TransportSpec } from '../../client/api';
import type { SshHooks } from '../../client/transports/ssh/ssh-hooks';
import { errorMessage } from '../../../shared/error-message';
import { AppError } from '../app-error';
import type { StoredEnvironment } from '../persistence/config-store';
import { ACTION_LINK_WAIT_MS, HEALTH_SAMPLES_TO_UI, HEALTH_THROTTLE_MS } from '../limits';
import type { ProcessRuntime } from '../processes/process-runtime';
import { SshConnectProgress } from '../ssh/ssh-connect-progress';
import { FirstConnectRetry } from './first-connect-retry';
import { appKind } from './kinds';
import type { SshPromptBroker } from '../ssh/ssh-prompts';

/**
 * Makes an environment's client: `ssh` carries the hooks an SSH transport's bootstrap asks through,
 * `resumeSessionId` the session to resume after an app restart.
 */
export type ClientFactory = (spec: TransportSpec, options?: ClientFactoryOptions) => ExecServerClientApi;

export interface ClientFactoryOptions {
  ssh?: SshHooks;
  resumeSessionId?: string;
}

export interface EnvironmentRuntimeDeps {
  createClient: ClientFactory;
  /** Builds the transport (reads the token) at connect time. */
  transport: (stored: StoredEnvironment) => Promise<TransportSpec>;
  /** Output held back for this environment's renderers right now. */
  bufferedBytes: (env: EnvironmentRuntime) => number;
  changed: (view: EnvironmentView) => void;
  prompts: SshPromptBroker;
  /** The client's connection state changed (after the view went out). */
  linkChanged?: (env: EnvironmentRuntime, state: ConnectionState) => void;
}

export class EnvironmentRuntime {
  readonly processes = new Map<string, ProcessRuntime>();
  private client: ExecServerClientApi | null = null;
  private unlisten: Array<() => void> = [];
  private link: LinkState = { kind: 'idle', since: Date.now() };
  private health: HealthSnapshot | null = null;
  private lastEmitAt = 0;
  private throttleTimer: NodeJS.Timeout | null = null;
  /** Removed (or the app is closing): no view goes out any more, or the UI would show it again. */
  private disposed = false;
  /** Created with the first connect that bootstraps a host; kept across reconnects so *Show log* spans them. */
  private ssh: SshConnectProgress | null = null;
  /** An environment of a kind whose failed first connect retries by itself (see FirstConnectRetry). */
  private readonly firstConnectRetry = new FirstConnectRetry(
    () => appKind(this.stored.settings.kind).retriesFirstConnect,
    () => this.reconnectNow(),
  );
  /**
   * The server session to resume instead of opening a new one, set before the first connect after
   * an app restart and handed to the client it creates.
   */
  resumeSessionId: string | null = null;

  constructor(
    public stored: StoredEnvironment,
    public hasToken: boolean,
    private readonly deps: EnvironmentRuntimeDeps,
  ) {}

  get id(): string {
    return this.stored.id;
  }

  get view(): EnvironmentView {
    return {
      id: this.stored.id,
      name: this.stored.name,
      color: this.stored.color,
      settings: this.stored.settings,
      hasToken: this.hasToken,
      enabled: this.stored.enabled,
      link: this.link,
      health: this.health ? healthView(this.health) : null,
      info: this.client?.environmentInfo ? { ...this.client.environmentInfo } : null,
      bufferedBytes: this.deps.bufferedBytes(this),
      workspaceFolder: this.stored.workspaceFolder ?? null,
      terminalProfile: this.stored.terminalProfile ?? EMPTY_TERMINAL_PROFILE,
      ...(appKind(this.stored.settings.kind).bootstrapsHost ? { sshConnect: this.ssh?.view ?? null } : {}),
    };
  }

  /** The connect log of the SSH connects so far (empty before the first). */
  get sshConnectLog(): string[] {
    return this.ssh?.logLines ?? [];
  }

  /** The connected client, or a clear error saying why there is none. */
  requireClient(): ExecServerClientApi {
    if (!this.client) {
      throw new AppError('disconnected', `"${this.stored.name}" is not connected. Connect it and try again.`);
    }
    if (this.client.state.kind === 'failed' || this.client.state.kind === 'closed') {
      throw new AppError(
        'disconnected',
        `"${this.stored.name}" is not connected (${this.link.reason ?? this.client.state.kind}). Reconnect it and try again.`,
      );
    }
    return this.client;
  }

  /**
   * The client, connected first if it is not (fails like requireClient, or as the connect does).
   * While the link is down (reconnecting) it waits at most ACTION_LINK_WAIT_MS, then fails with
   * nothing sent: the user's action must not wait as long as the outage.
   */
  async connectedClient(): Promise<ExecServerClientApi> {
    const client = this.requireClient();
    if (client.state.kind === 'connected') return client;
    if (client.state.kind !== 'reconnecting') {
      await client.connect();
      return client;
    }
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new AppError(
              'disconnected',
              `Waiting for the link: "${this.stored.name}" has been reconnecting for the last ` +
                `${ACTION_LINK_WAIT_MS / 1000} s, so this was not sent. Try again once it is connected.`,
            ),
          ),
        ACTION_LINK_WAIT_MS,
      );
    });
    try {
      await Promise.race([client.connect(), waited]);
    } finally {
      clearTimeout(timer);
    }
    return client;
  }

  get currentClient(): ExecServerClientApi | null {
    return this.client;
  }

  /** Creates the client if needed and waits until it is connected (or fails; the link says why). */
  async connect(): Promise<void> {
    if (!this.client) {
      let spec: TransportSpec;
      try {
        spec = await this.deps.transport(this.stored);
      } catch (error) {
        // Nothing to retry with (e.g. the token store is unreadable): show why, stay disconnected.
        this.link = { kind: 'failed', since: Date.now(), reason: errorMessage(error) };
        this.emitNow();
        return;
      }
      if (this.client) return this.connect();
      const ssh = appKind(this.stored.settings.kind).bootstrapsHost ? this.sshHooks() : undefined;
      const resumeSessionId = this.resumeSessionId;
      this.resumeSessionId = null;
      const client = this.deps.createClient(spec, {
        ...(ssh ? { ssh } : {}),
        ...(resumeSessionId ? { resumeSessionId } : {}),
      });
      this.client = client;
      this.firstConnectRetry.reset();
      this.unlisten = [
        client.onStateChange((state) => this.onState(state)),
        client.onHealthChange((health) => {
          this.health = health;
          this.emitThrottled();
        }),
      ];
      this.onState(client.state);
    }
    const client = this.client;
    await client.connect().catch(() => undefined);
  }

  reconnectNow(): void {
    if (this.client) this.client.reconnectNow();
  }

  /** The network may be back: a failed first connect waiting for its retry tries now. */
  networkMayBeBack(): void {
    this.firstConnectRetry.networkMayBeBack();
  }

  async disconnect(): Promise<void> {
    const client = this.client;
    if (!client) return;
    // Nobody waits for an answer to a connect that is being abandoned.
    this.deps.prompts.cancelAsker(this.id);
    this.firstConnectRetry.cancel();
    await client.close().catch(() => undefined);
    for (const stop of this.unlisten) stop();
    this.unlisten = [];
    if (this.client === client) this.client = null;
    this.health = null;
    this.link = { kind: 'idle', since: Date.now() };
    this.emitNow();
  }

  /** Something shown in the view changed (e.g. buffered bytes): send it, at most a few times a second. */
  emitThrottled(): void {
    if (this.throttleTimer || this.disposed) return;
    const wait = Math.max(0, this.lastEmitAt + HEALTH_THROTTLE_MS - Date.now());
    this.throttleTimer = setTimeout(() => this.emitNow(), wait);
  }

  emitNow(): void {
    if (this.throttleTimer) {
      clearTimeout(this.throttleTimer);
      this.throttleTimer = null;
    }
    if (this.disposed) return;
    this.lastEmitAt = Date.now();
    this.deps.changed(this.view);
  }

  /**
   * Stops every view from going out, the throttled ones too: after a removal a late one (an output
   * acknowledgement while the link closes) would bring the environment back into the sidebar.
   */
  dispose(): void {
    this.disposed = true;
    this.firstConnectRetry.cancel();
    if (this.throttleTimer) clearTimeout(this.throttleTimer);
    this.throttleTimer = null;
  }

  private onState(state: ConnectionState): void {
    this.firstConnectRetry.linkChanged(state);
    const retryAt = this.firstConnectRetry.retryAt;
    this.link = { ...linkState(state), ...(retryAt !== null ? { retryAt } : {}) };
    this.ssh?.linkChanged(state);
    this.emitNow();
    this.deps.linkChanged?.(this, state);
  }

  private sshHooks(): SshHooks {
    const progress = (this.ssh ??= new SshConnectProgress((urgent) =>
      urgent ? this.emitNow() : this.emitThrottled(),
    ));
    return {
      prompt: (prompt) =>
        this.deps.prompts.ask({ key: this.id, envId: this.id, envName: this.stored.name }, prompt),
      onStage: (event) => progress.onStage(event),
      onLog: (line) => progress.onLog(line),
    };
  }
}

function linkState(state: ConnectionState): LinkState {
  switch (state.kind) {
    case 'idle':
      return { kind: 'idle', since: Date.now() };
    case 'connecting':
    case 'connected':
    case 'closed':
      return { kind: state.kind, since: state.since };
    case 'reconnecting':
      return {
        kind: 'reconnecting',
        since: state.since,
        reason: state.reason,
        attempt: state.attempt,
        nextRetryAt: state.nextRetryAt,
        sessionHeldUntil: state.sessionHeldUntil,
        deadlineAt: state.deadlineAt,
      };
    case 'failed':
      return {
        kind: 'failed',
        since: state.since,
        reason: state.reason,
        code: state.code,
        ...(state.expiredAt !== undefined ? { expiredAt: state.expiredAt } : {}),
      };
  }
}

function healthView(health: HealthSnapshot): HealthView {
  return {
    ...health,
    rttSamples: health.rttSamples.slice(-HEALTH_SAMPLES_TO_UI),
    history: health.history.map((h) => ({
      at: h.at,
      state: h.state,
      ...(h.reason ? { reason: h.reason } : {}),
    })),
  };
}
