// Connects processes to the renderers: starts a ProcessRuntime with every renderer subscribed,
// drops one, and turns the renderers' offsets into the ack sent to the server and into the output
// an environment holds back for them. Owns no state: processes live in their EnvironmentRuntime,
// renderer links in the RendererFanout.
import { randomUUID } from 'node:crypto';
import type { ProcessView } from '../../../shared/ipc';
import { errorMessage } from '../../../shared/error-message';
import { TetherCapability } from '../../../shared/protocol';
import type { ExecServerClientApi, ProcessStartOptions } from '../../client/api';
import type { EnvironmentRegistry } from '../environments/environment-registry';
import type { EnvironmentRuntime } from '../environments/environment-runtime';
import { PROCESS_LOGS_TOTAL_LIMIT_BYTES, SERVER_OUTPUT_WINDOW_BYTES } from '../limits';
import { OutputLogCap, type ProcessLog } from './process-log';
import { ProcessRuntime, type RestoredProcess } from './process-runtime';
import type { RendererFanout } from './renderer-fanout';
import type { SavedProcess } from '../persistence/saved-sessions';
import type { StreamSource } from './renderer-link';

/**
 * What a pty the app starts tells its programs about the terminal: the panes are xterm.js, which
 * draws 256 colours and 24-bit colour. The server's own TERM (often plain `xterm`, 8 colours) would
 * otherwise leak through the inherited environment. A caller's env still wins.
 */
export const PANE_TERMINAL_ENV: Readonly<Record<string, string>> = {
  TERM: 'xterm-256color',
  COLORTERM: 'truecolor',
};

export interface ProcessOutputWatcher {
  printed(process: ProcessView, data: Uint8Array): void;
  ended(process: ProcessView): void;
  /** It runs (started, followed again, or its view changed while running). */
  running?(process: ProcessView): void;
}

export class ProcessFlow implements StreamSource {
  constructor(
    private readonly envs: EnvironmentRegistry,
    private readonly renderers: RendererFanout,
    /** A process was added or changed, or its output moved on (what an app restart restores). */
    private readonly processesChanged: () => void = () => undefined,
    /** The bound on every process's retained output together. */
    readonly cap = new OutputLogCap(PROCESS_LOGS_TOTAL_LIMIT_BYTES),
  ) {}

  private readonly watchers: ProcessOutputWatcher[] = [];

  /** Adds one who reads every process's fresh output and hears of its start and end (port detection). */
  watchOutput(watcher: ProcessOutputWatcher): void {
    this.watchers.push(watcher);
  }

  /** Starts a process; a start the server refuses still returns its view, in state failed. */
  async start(
    env: EnvironmentRuntime,
    client: ExecServerClientApi,
    base: Omit<ProcessStartOptions, 'processId'>,
  ): Promise<ProcessView> {
    const flowControl = client.hasCapability(TetherCapability.flowControl);
    const options: ProcessStartOptions & { processId: string } = {
      ...base,
      ...(base.tty ? { env: { ...PANE_TERMINAL_ENV, ...base.env } } : {}),
      processId: `p-${randomUUID()}`,
      inheritEnv: true,
      pipeStdin: !base.tty,
      ...(flowControl ? { outputWindowBytes: SERVER_OUTPUT_WINDOW_BYTES } : {}),
    };
    const resizable = base.tty && client.hasCapability(TetherCapability.processResize);
    const runtime = this.add(env, options, resizable);
    try {
      runtime.attach(await client.startProcess(options));
    } catch (error) {
      runtime.startFailed(`Could not start ${options.argv[0]}: ${errorMessage(error)}`);
    }
    return runtime.snapshot;
  }

  /**
   * A process saved before an app restart, shown as it was: a running one until reattach() follows
   * it again, an ended one (`ending`, or as saved) as it ended, so its pane stays with the reason.
   */
  restore(env: EnvironmentRuntime, saved: SavedProcess, ending = saved.ended): void {
    const options: ProcessStartOptions & { processId: string } = {
      processId: saved.processId,
      argv: saved.argv,
      cwd: saved.cwd,
      ...(saved.env ? { env: saved.env } : {}),
      inheritEnv: true,
      tty: saved.tty,
      pipeStdin: !saved.tty,
      ...(saved.size ? { size: saved.size } : {}),
      ...(saved.flowControl ? { outputWindowBytes: SERVER_OUTPUT_WINDOW_BYTES } : {}),
    };
    const runtime = this.add(env, options, saved.resizable, {
      pid: saved.pid,
      startedAt: saved.startedAt,
      lastSeq: saved.lastSeq,
      ...(ending ? { ended: ending } : {}),
      ...(saved.commands ? { commands: saved.commands } : {}),
    });
    // A watched process is still another client's (read-only until taken over) after the restart;
    // the app's session, resumed, still holds its attachment on the server.
    if (saved.watched) runtime.watching(saved.watched);
  }

  /** Follows a restored process again: its retained output is read back from the server. */
  async reattach(client: ExecServerClientApi, runtime: ProcessRuntime): Promise<void> {
    try {
      const { tty, outputWindowBytes } = runtime.options;
      const flowControl = outputWindowBytes !== undefined;
      runtime.attach(
        await client.attachProcess(runtime.processId, {
          afterSeq: 0,
          flowControl,
          ...(flowControl ? { outputWindowBytes } : {}),
          tty,
        }),
      );
    } catch (error) {
      runtime.lost(`Could not follow this process again after the restart: ${errorMessage(error)}`);
    }
  }

  /**
   * Follows process `processId` of another session (`owner`) here, read-only at first: a process
   * of the environment's list like any other, with `watched` in its view.
   */
  async watch(
    env: EnvironmentRuntime,
    client: ExecServerClientApi,
    owner: { sessionId: string; clientName: string },
    target: { processId: string; argv: string[]; cwd: string; tty: boolean; startedAt: number },
  ): Promise<ProcessView> {
    const handle = await client.attachOtherProcess(owner.sessionId, target.processId, { tty: target.tty });
    const options: ProcessStartOptions & { processId: string } = {
      processId: handle.processId,
      argv: target.argv,
      cwd: target.cwd,
      tty: target.tty,
    };
    const resizable = target.tty && client.hasCapability(TetherCapability.processResize);
    const runtime = this.add(env, options, resizable);
    runtime.watching(
      { clientName: owner.clientName, sessionId: owner.sessionId, control: false, kept: false },
      target.startedAt,
    );
    runtime.attach(handle);
    return runtime.snapshot;
  }

  /** Tells every renderer that the other clients' processes of `envId` changed. */
  othersChanged(envId: string): void {
    this.renderers.broadcast('processes.othersChanged', { envId });
  }

  drop(env: EnvironmentRuntime, runtime: ProcessRuntime): void {
    runtime.dispose();
    env.processes.delete(runtime.processId);
    this.renderers.forget(env.id, runtime.processId);
    this.renderers.broadcast('processes.removed', { envId: env.id, processId: runtime.processId });
    this.processesChanged();
  }

  private add(
    env: EnvironmentRuntime,
    options: ProcessStartOptions & { processId: string },
    resizable: boolean,
    restored?: RestoredProcess,
  ): ProcessRuntime {
    const runtime: ProcessRuntime = new ProcessRuntime(
      env.id,
      options,
      resizable,
      {
        changed: (view) => {
          const ended = view.state !== 'starting' && view.state !== 'running';
          for (const watcher of this.watchers) {
            if (ended) watcher.ended(view);
            else if (view.state === 'running') watcher.running?.(view);
          }
          this.renderers.broadcast('processes.changed', view);
          this.processesChanged();
        },
        appended: (bytes) => {
          this.renderers.notify(bytes);
          this.consumed(env.id, runtime.processId);
          if (bytes > 0) env.emitThrottled();
          this.processesChanged();
        },
        printed: (data) => {
          if (this.watchers.length === 0) return;
          const view = runtime.snapshot;
          for (const watcher of this.watchers) watcher.printed(view, data);
        },
      },
      restored,
      this.cap,
    );
    env.processes.set(runtime.processId, runtime);
    this.renderers.subscribe(env.id, runtime.processId);
    this.renderers.broadcast('processes.changed', runtime.snapshot);
    this.processesChanged();
    return runtime;
  }

  /** The environment's session ended: its running processes can no longer be followed. */
  markLost(env: EnvironmentRuntime, message: string): void {
    for (const p of env.processes.values()) if (p.running) p.lost(message);
  }

  log(envId: string, processId: string): ProcessLog | undefined {
    return this.envs.find(envId)?.processes.get(processId)?.log;
  }

  /** Acknowledges to the server what every following renderer has consumed. */
  consumed(envId: string, processId: string): void {
    const runtime = this.envs.find(envId)?.processes.get(processId);
    if (!runtime) return;
    runtime.acknowledge(this.renderers.consumedFrontier(envId, processId, runtime.log.totalBytes));
    this.envs.find(envId)?.emitThrottled();
  }

  /** A renderer went away: what it held back no longer holds anyone else back. */
  consumedByAll(): void {
    for (const env of this.envs.all())
      for (const p of env.processes.values()) this.consumed(env.id, p.processId);
  }

  /** Output of this environment's processes not yet sent to every renderer. */
  bufferedBytes(env: EnvironmentRuntime): number {
    let total = 0;
    for (const p of env.processes.values()) {
      const sent = this.renderers.sentFrontier(env.id, p.processId, p.log.totalBytes);
      // Output dropped from the log is no longer held for anyone (it becomes a gap event).
      total += p.log.totalBytes - Math.max(sent, p.log.evictedThroughOffset);
    }
    return total;
  }
}
