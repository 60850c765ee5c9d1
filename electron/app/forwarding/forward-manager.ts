// The port forwards of every environment: each one a PortForward (electron/client/forwarding) whose
// connections go through whatever client the environment has at that moment, kept in the
// environment's stored config so they come back after a restart. Owns their views and tells the
// renderers when one changes.
import { randomUUID } from 'node:crypto';
import type * as net from 'node:net';
import type {
  ForwardOrigin,
  ForwardState,
  ForwardView,
  PortProcess,
  StoredForward,
} from '../../../shared/ipc';
import { TetherCapability } from '../../../shared/protocol';
import { errorMessage } from '../../../shared/error-message';
import { PortForward, type StreamPiper } from '../../client/forwarding/port-forward';
import type { ExecServerClientApi } from '../../client/api';
import { AppError, notFound } from '../app-error';
import type { EnvironmentRegistry } from '../environments/environment-registry';

interface LiveForward {
  stored: StoredForward;
  forward: PortForward | null;
  error: string | null;
  /** The last connection was refused on the host. */
  refused: boolean;
  /** How it was found; any but byHand is a detected one (printed-ports.ts, socket-ports.ts), never stored. */
  origin: DetectedBy;
}

/** How a forward came to be, and through which process (detected ones). */
export interface DetectedBy {
  foundBy: ForwardOrigin;
  process: PortProcess | null;
}

const BY_HAND: DetectedBy = { foundBy: 'byHand', process: null };

export interface ForwardManagerDeps {
  envs: EnvironmentRegistry;
  /** Writes the config file, after `stored` of an environment changed. */
  save(): Promise<void>;
  changed(envId: string, forwards: ForwardView[]): void;
  /** A user stopped a detected forward (forwards.stop): detection leaves that port alone this run. */
  stoppedByHand?(envId: string, forward: ForwardView): void;
}

export class ForwardManager {
  private readonly byEnv = new Map<string, Map<string, LiveForward>>();

  constructor(private readonly deps: ForwardManagerDeps) {}

  /** Starts the stored forwards of every environment (at launch). */
  async restoreAll(): Promise<void> {
    for (const env of this.deps.envs.all()) {
      for (const stored of env.stored.forwards ?? []) await this.bind(env.id, stored);
      this.publish(env.id);
    }
  }

  list(envId: string): ForwardView[] {
    this.deps.envs.get(envId);
    return [...(this.byEnv.get(envId)?.values() ?? [])].map((live) => this.view(envId, live));
  }

  async add(envId: string, target: Omit<StoredForward, 'id'>, origin = BY_HAND): Promise<ForwardView> {
    this.deps.envs.get(envId);
    const stored: StoredForward = { id: randomUUID(), ...target };
    const live = await this.bind(envId, stored, origin);
    if (live.forward === null) {
      this.forget(envId, stored.id);
      throw new AppError('conflict', live.error ?? 'The local port could not be bound.');
    }
    await this.persist(envId);
    return this.view(envId, live);
  }

  async setLocalPort(envId: string, id: string, localPort: number): Promise<ForwardView> {
    const live = this.find(envId, id);
    await live.forward?.stop();
    live.stored = { ...live.stored, localPort };
    await this.start(envId, live);
    await this.persist(envId);
    return this.view(envId, live);
  }

  /** Port detection learnt which process listens on a detected forward's port (socket-ports.ts). */
  identify(envId: string, id: string, process: PortProcess): void {
    const live = this.byEnv.get(envId)?.get(id);
    if (!live || live.origin.foundBy === 'byHand') return;
    live.origin = { ...live.origin, process };
    this.publish(envId);
  }

  /** Stops a forward; `byHand`: a user asked (forwards.stop), not detection tidying up. */
  async stop(envId: string, id: string, byHand = false): Promise<void> {
    const live = this.find(envId, id);
    const view = this.view(envId, live);
    await live.forward?.stop();
    this.forget(envId, id);
    await this.persist(envId);
    if (byHand && view.auto) this.deps.stoppedByHand?.(envId, view);
  }

  /** The environment was removed: its ports are released (its config entry is gone with it). */
  async environmentRemoved(envId: string): Promise<void> {
    const forwards = this.byEnv.get(envId);
    this.byEnv.delete(envId);
    await Promise.all([...(forwards?.values() ?? [])].map((live) => live.forward?.stop()));
  }

  async closeAll(): Promise<void> {
    const all = [...this.byEnv.values()].flatMap((forwards) => [...forwards.values()]);
    this.byEnv.clear();
    await Promise.all(all.map((live) => live.forward?.stop()));
  }

  private find(envId: string, id: string): LiveForward {
    const live = this.byEnv.get(envId)?.get(id);
    if (!live) throw notFound(`The forward ${id}`);
    return live;
  }

  private forget(envId: string, id: string): void {
    this.byEnv.get(envId)?.delete(id);
    this.publish(envId);
  }

  private async bind(envId: string, stored: StoredForward, origin = BY_HAND): Promise<LiveForward> {
    let forwards = this.byEnv.get(envId);
    if (!forwards) {
      forwards = new Map();
      this.byEnv.set(envId, forwards);
    }
    const live: LiveForward = { stored, forward: null, error: null, refused: false, origin };
    forwards.set(stored.id, live);
    await this.start(envId, live);
    return live;
  }

  private async start(envId: string, live: LiveForward): Promise<void> {
    const { stored } = live;
    try {
      live.forward = await PortForward.start(this.piper(envId), {
        target: { host: stored.host, port: stored.port },
        ...(stored.localPort !== undefined ? { localPort: stored.localPort } : {}),
        onConnected: () => this.connectionEnded(envId, live, false),
        onConnectionError: (_message, _error, refused) => this.connectionEnded(envId, live, refused),
      });
      live.error = null;
    } catch (error) {
      live.forward = null;
      live.error = errorMessage(error);
    }
    this.publish(envId);
  }

  private connectionEnded(envId: string, live: LiveForward, refused: boolean): void {
    if (live.refused === refused) return;
    live.refused = refused;
    this.publish(envId);
  }

  /**
   * Connections go through the environment's client of the moment (it changes with its settings);
   * an enabled environment not connected yet (no auto-connect) is connected by the first one.
   */
  private piper(envId: string): StreamPiper {
    const client = async (signal?: AbortSignal): Promise<ExecServerClientApi> => {
      const env = this.deps.envs.find(envId);
      if (env && !env.currentClient && env.stored.enabled) await untilAborted(env.connect(), signal);
      const current = env?.currentClient;
      if (!current) throw new AppError('disconnected', 'The environment is not connected (it is disabled).');
      return current;
    };
    return {
      pipeStream: async (socket: net.Socket, target, signal) => {
        let current: ExecServerClientApi;
        try {
          current = await client(signal);
        } catch (error) {
          socket.destroy();
          throw error;
        }
        return current.pipeStream(socket, target, signal);
      },
      forwardingMode: async (signal) => (await client(signal)).forwardingMode(signal),
      httpRequest: async (spec, sink, signal) => (await client(signal)).httpRequest(spec, sink, signal),
    };
  }

  private async persist(envId: string): Promise<void> {
    const env = this.deps.envs.get(envId);
    const forwards = [...(this.byEnv.get(envId)?.values() ?? [])]
      .filter((live) => live.origin.foundBy === 'byHand')
      .map((live) => live.stored);
    env.stored = { ...env.stored, forwards };
    await this.deps.save();
  }

  private publish(envId: string): void {
    if (!this.deps.envs.find(envId)) return;
    this.deps.changed(envId, this.list(envId));
  }

  private view(envId: string, live: LiveForward): ForwardView {
    const { forward } = live;
    return {
      ...live.stored,
      envId,
      state: this.stateOf(envId, live),
      addresses: forward?.addresses ?? [],
      boundPort: forward?.localPort ?? null,
      remapped: forward?.remapped ?? false,
      error: live.error,
      auto: live.origin.foundBy !== 'byHand',
      httpOnly: this.httpOnly(envId),
      foundBy: live.origin.foundBy,
      process: live.origin.process,
    };
  }

  /** Connected to a server without TCP streams (codex): the forward carries plain HTTP only. */
  private httpOnly(envId: string): boolean {
    const client = this.deps.envs.find(envId)?.currentClient;
    return client?.state.kind === 'connected' && !client.hasCapability(TetherCapability.streams);
  }

  private stateOf(envId: string, live: LiveForward): ForwardState {
    if (live.forward === null) return 'failed';
    if (this.deps.envs.find(envId)?.currentClient?.state.kind !== 'connected') return 'linkDown';
    return live.refused ? 'nothingListening' : 'forwarding';
  }
}

/** `work`, or the abort of `signal` (its reason) if that comes first. */
function untilAborted<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
