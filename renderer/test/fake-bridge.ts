// An in-memory test double of the TetherBridge contract for store and component tests: commands
// answered by per-test handlers, every call recorded, events emitted on demand.
import type {
  CommandInput,
  CommandName,
  CommandOutput,
  EventName,
  EventPayload,
  TetherBridge,
} from '../../shared/ipc';
import { EMPTY_TERMINAL_PROFILE, IpcError } from '../../shared/ipc';
import type { EnvironmentView, ProcessView } from '../../shared/ipc';

type Handler<N extends CommandName> = (
  input: CommandInput<N>,
) => CommandOutput<N> | Promise<CommandOutput<N>>;

export class FakeBridge implements TetherBridge {
  readonly calls: { name: CommandName; input: unknown }[] = [];
  private readonly handlers = new Map<CommandName, Handler<CommandName>>();
  private readonly listeners = new Map<EventName, Set<(payload: unknown) => void>>();

  handle<N extends CommandName>(name: N, handler: Handler<N>): this {
    this.handlers.set(name, handler as unknown as Handler<CommandName>);
    return this;
  }

  async invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>> {
    this.calls.push({ name, input });
    const handler = this.handlers.get(name) as Handler<N> | undefined;
    if (!handler) throw new IpcError('unknownCommand', `no fake handler for ${name}`);
    return handler(input);
  }

  on<N extends EventName>(name: N, listener: (payload: EventPayload<N>) => void): () => void {
    const set = this.listeners.get(name) ?? new Set();
    set.add(listener as (payload: unknown) => void);
    this.listeners.set(name, set);
    return () => set.delete(listener as (payload: unknown) => void);
  }

  emit<N extends EventName>(name: N, payload: EventPayload<N>): void {
    for (const listener of this.listeners.get(name) ?? []) listener(payload);
  }

  callsOf<N extends CommandName>(name: N): CommandInput<N>[] {
    return this.calls.filter((c) => c.name === name).map((c) => c.input as CommandInput<N>);
  }

  /** What each processes.write carried, as text (a terminal writes UTF-8 bytes). */
  writtenText(): string[] {
    return this.callsOf('processes.write').map((w) =>
      typeof w.data === 'string' ? w.data : new TextDecoder().decode(w.data),
    );
  }
}

export function makeEnv(patch: Partial<EnvironmentView> = {}): EnvironmentView {
  return {
    id: 'env-1',
    name: 'Build box',
    color: '#3b82f6',
    settings: { kind: 'ws', url: 'ws://127.0.0.1:9' },
    hasToken: false,
    enabled: true,
    link: { kind: 'connected', since: 0 },
    terminalProfile: EMPTY_TERMINAL_PROFILE,
    health: {
      rttSamples: [
        [1_000, 3],
        [2_000, 5],
        [3_000, 4],
      ],
      rttP50Ms: 4,
      rttP95Ms: 5,
      lastRttMs: 3,
      lastContactAt: 3_000,
      degraded: false,
      stalled: false,
      stallReconnectAt: null,
      reconnectCount: 2,
      history: [
        { at: 1_000, state: 'connecting' },
        { at: 2_000, state: 'connected' },
        { at: 2_500, state: 'reconnecting', reason: 'socket closed' },
      ],
      thresholds: { degradedRttMs: 250, stalledAfterMs: 10_000 },
    },
    info: {
      shell: { name: 'bash', path: '/bin/bash' },
      executorVersion: '0.1.0',
      platformOs: 'linux',
      cwd: 'file:///home/u/my%20project',
      temporaryDirectories: ['file:///scratch/tmp'],
      capabilities: { tetherProcessResize: true, tetherFlowControl: true, fsWatchMissing: false },
      providerId: 'build-7',
    },
    bufferedBytes: 0,
    ...patch,
  };
}

export function makeProcess(patch: Partial<ProcessView> = {}): ProcessView {
  return {
    envId: 'env-1',
    processId: 'p-1',
    argv: ['bash', '-l'],
    title: 'bash',
    cwd: '/home/u',
    tty: true,
    state: 'running',
    pid: 4242,
    exitCode: null,
    failure: null,
    startedAt: Date.now() - 65_000,
    endedAt: null,
    size: { cols: 80, rows: 24 },
    resizable: true,
    ...patch,
  };
}
