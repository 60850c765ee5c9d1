// The AppService: everything the UI can do — environments, processes, files, transfers, settings —
// implemented over one reconnecting client per environment, and the event stream back to every
// attached renderer. Framework-free: hosts inject secrets, the client factory and host services.
import { randomUUID } from 'node:crypto';
import type {
  AppNotice,
  EnvironmentDraft,
  EnvironmentSettings,
  EventName,
  EventPayload,
  ProcessView,
  Settings,
} from '../../shared/ipc';
import { TetherCapability } from '../../shared/protocol';
import type { ExecServerClientApi, ProcessStartOptions } from '../client/api';
import { fromPathUri } from '../client/path-uri';
import { AppError, notFound } from './app-error';
import type { CommandHandlers } from './command-handlers';
import { splitCommandLine } from './command-line';
import { CONFIG_VERSION, ConfigStore, LOCAL_ENVIRONMENT_ID, type StoredEnvironment } from './config-store';
import { testConnection } from './connection-test';
import { EnvironmentRuntime, type ClientFactory } from './environment-runtime';
import { baseName, listDirectory, previewFile, statPath } from './file-service';
import type { HostServices } from './host-services';
import { SERVER_OUTPUT_WINDOW_BYTES, SHUTDOWN_TIMEOUT_MS, UPLOAD_BUFFER_LIMIT_BYTES } from './limits';
import type { LocalServerCommand } from './local-server';
import { ProcessRuntime } from './process-runtime';
import { RendererLink, type EventSink } from './renderer-link';
import type { SecretStore } from './secret-store';
import { TransferQueue } from './transfer-queue';
import { transportFor } from './transport-spec';
import { UploadBuffer } from './upload-buffer';
import { runUpload } from './upload-job';
import { errorMessage } from '../../shared/error-message';

export interface AppServiceOptions {
  /** Where the config file lives (created if missing). */
  dataDir: string;
  secrets: SecretStore;
  createClient: ClientFactory;
  localServer: LocalServerCommand;
  host: HostServices;
  /** Connect enabled environments at start (default true). */
  autoConnect?: boolean;
}

export class AppService {
  private readonly envs = new Map<string, EnvironmentRuntime>();
  private readonly links = new Set<RendererLink>();
  private readonly notices: AppNotice[] = [];
  private readonly transfers = new TransferQueue((view) => this.broadcast('transfers.changed', view));
  private settings!: Settings;
  private closed = false;

  private constructor(
    private readonly options: AppServiceOptions,
    private readonly store: ConfigStore,
  ) {}

  static async create(options: AppServiceOptions): Promise<AppService> {
    const store = new ConfigStore(options.dataDir);
    const service = new AppService(options, store);
    const { config, problem } = await store.load();
    service.settings = config.settings;
    for (const stored of config.environments) {
      const hasToken = (await options.secrets.get(secretKey(stored.id)).catch(() => null)) !== null;
      service.envs.set(stored.id, service.runtimeFor(stored, hasToken));
    }
    if (problem) service.notify('error', problem);
    if (options.autoConnect ?? true) {
      for (const env of service.envs.values()) if (env.stored.enabled) void env.connect();
    }
    return service;
  }

  get configFile(): string {
    return this.store.file;
  }

  /** A renderer connected: its events go to `sink`. Detach it when it goes away. */
  attach(sink: EventSink): RendererLink {
    const link = new RendererLink(randomUUID(), sink, {
      log: (envId, processId) => this.envs.get(envId)?.processes.get(processId)?.log,
      consumed: (envId, processId) => this.consumed(envId, processId),
    });
    this.links.add(link);
    return link;
  }

  detach(link: RendererLink): void {
    link.close();
    this.links.delete(link);
    for (const env of this.envs.values())
      for (const p of env.processes.values()) this.consumed(env.id, p.processId);
  }

  /** Closes every client (stopping the Local exec-server); remote processes keep running. */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.transfers.cancelAll();
    const closing = [...this.envs.values()].map(async (env) => {
      env.dispose();
      await env.disconnect();
    });
    await Promise.race([
      Promise.all(closing),
      new Promise((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS)),
    ]);
    for (const link of this.links) link.close();
    this.links.clear();
  }

  readonly handlers: CommandHandlers = {
    'environments.list': () => [...this.envs.values()].map((e) => e.view),
    'environments.add': async (draft) => {
      if (draft.settings.kind === 'local') {
        throw new AppError(
          'invalidInput',
          'There is exactly one Local environment; add a WebSocket or Command one.',
        );
      }
      checkSettings(draft.settings);
      const stored: StoredEnvironment = {
        id: randomUUID(),
        name: draft.name,
        color: draft.color,
        settings: draft.settings,
        enabled: true,
      };
      if (draft.token) await this.options.secrets.set(secretKey(stored.id), draft.token);
      const env = this.runtimeFor(stored, Boolean(draft.token));
      this.envs.set(stored.id, env);
      await this.save();
      env.emitNow();
      void env.connect();
      return env.view;
    },
    'environments.update': async ({ id, draft }) => {
      const env = this.env(id);
      if ((draft.settings.kind === 'local') !== (id === LOCAL_ENVIRONMENT_ID)) {
        throw new AppError('invalidInput', 'An environment cannot change to or from the Local kind.');
      }
      checkSettings(draft.settings);
      const reconnect =
        JSON.stringify(draft.settings) !== JSON.stringify(env.stored.settings) || draft.token !== undefined;
      await this.applyToken(env, draft);
      env.stored = { ...env.stored, name: draft.name, color: draft.color, settings: draft.settings };
      await this.save();
      if (reconnect && env.currentClient) {
        await env.disconnect();
        this.markLost(env, 'The environment was reconfigured; this process can no longer be followed.');
        if (env.stored.enabled) void env.connect();
      }
      env.emitNow();
      return env.view;
    },
    'environments.remove': async ({ id, terminateProcesses }) => {
      const env = this.env(id);
      if (id === LOCAL_ENVIRONMENT_ID)
        throw new AppError('conflict', 'The Local environment cannot be removed.');
      if (terminateProcesses) {
        await Promise.all([...env.processes.values()].map((p) => p.live?.terminate().catch(() => undefined)));
      }
      env.dispose();
      await env.disconnect();
      for (const p of env.processes.values()) this.dropProcess(env, p);
      this.envs.delete(id);
      await this.options.secrets.delete(secretKey(id));
      await this.save();
      this.broadcast('environments.removed', { id });
      return { ok: true };
    },
    'environments.connect': async ({ id }) => {
      const env = this.env(id);
      if (!env.stored.enabled) {
        env.stored = { ...env.stored, enabled: true };
        await this.save();
      }
      await env.connect();
      return { ok: true };
    },
    'environments.disconnect': async ({ id }) => {
      const env = this.env(id);
      env.stored = { ...env.stored, enabled: false };
      await this.save();
      await env.disconnect();
      this.markLost(
        env,
        'Disconnected; reconnecting starts a new session, so this process can no longer be followed.',
      );
      return { ok: true };
    },
    'environments.reconnectNow': ({ id }) => {
      this.reconnect(this.env(id));
      return { ok: true };
    },
    'environments.reconnectAll': () => {
      this.reconnectAll();
      return { ok: true };
    },
    'environments.test': async ({ settings, token, id }) => {
      checkSettings(settings);
      const secret = token ?? (id ? await this.options.secrets.get(secretKey(id)) : null);
      return testConnection(
        transportFor(settings, secret, this.options.localServer),
        this.options.createClient,
      );
    },

    'processes.list': ({ envId }) => [...this.env(envId).processes.values()].map((p) => p.snapshot),
    'processes.start': async (input) => {
      if (input.argv && input.shellLine) {
        throw new AppError('invalidInput', 'Give either argv or shellLine, not both.');
      }
      const env = this.env(input.envId);
      const client = await this.connectedClient(env);
      const shell = client.environmentInfo?.shell?.path || '/bin/sh';
      const argv = input.argv ?? (input.shellLine ? [shell, '-lc', input.shellLine] : [shell, '-l']);
      return this.startProcess(env, client, {
        argv,
        cwd: input.cwd ?? homeOf(client).home,
        ...(input.env ? { env: input.env } : {}),
        tty: input.tty,
        ...(input.size ? { size: input.size } : {}),
      });
    },
    'processes.write': async ({ envId, processId, data, base64 }) => {
      const handle = this.liveHandle(envId, processId);
      const status = await handle.write(base64 ? Buffer.from(data, 'base64') : data);
      if (status === 'stdinClosed') throw new AppError('conflict', 'This process no longer reads input.');
      if (status === 'unknownProcess') throw notFound('The process');
      return { ok: true };
    },
    'processes.resize': async ({ envId, processId, cols, rows }) => {
      const runtime = this.process(envId, processId);
      const handle = runtime.live;
      if (!runtime.resizable || !handle) return { applied: false };
      try {
        await handle.resize({ cols, rows });
      } catch (error) {
        if ((error as { code?: unknown }).code === 'unsupported') return { applied: false };
        throw error;
      }
      runtime.resized({ cols, rows });
      return { applied: true };
    },
    'processes.signal': async ({ envId, processId, signal }) => {
      const handle = this.liveHandle(envId, processId);
      const extended =
        this.env(envId).currentClient?.hasCapability(TetherCapability.extendedSignals) ?? false;
      if (signal === 'interrupt' || extended) await handle.signal(signal);
      else if (signal === 'terminate' || signal === 'kill') await handle.terminate();
      else
        throw new AppError('unsupported', `This server cannot send "${signal}"; use interrupt or terminate.`);
      return { ok: true };
    },
    'processes.restart': async ({ envId, processId }) => {
      const env = this.env(envId);
      const old = this.process(envId, processId);
      await old.live?.terminate().catch(() => undefined);
      const client = await this.connectedClient(env);
      const size = old.snapshot.size;
      const { argv, cwd, env: vars, tty } = old.options;
      return this.startProcess(env, client, {
        argv,
        cwd,
        tty,
        ...(vars ? { env: vars } : {}),
        ...(size ? { size } : {}),
      });
    },
    'processes.forget': ({ envId, processId }) => {
      const env = this.env(envId);
      const runtime = this.process(envId, processId);
      if (runtime.running)
        throw new AppError('conflict', 'The process is still running; terminate it first.');
      this.dropProcess(env, runtime);
      return { ok: true };
    },
    'processes.replay': ({ envId, processId, afterSeq }, link) => {
      const runtime = this.process(envId, processId);
      return link.replay(envId, processId, runtime.log, afterSeq);
    },
    'processes.ack': ({ envId, processId, bytes }, link) => {
      this.process(envId, processId);
      link.ack(envId, processId, bytes);
      return { ok: true };
    },

    'files.home': async ({ envId }) => homeOf(await this.connectedClient(this.env(envId))),
    'files.list': async ({ envId, path, showHidden }) =>
      listDirectory((await this.connectedClient(this.env(envId))).fs, path, showHidden),
    'files.stat': async ({ envId, path }) => statPath((await this.connectedClient(this.env(envId))).fs, path),
    'files.preview': async ({ envId, path }) =>
      previewFile((await this.connectedClient(this.env(envId))).fs, path),
    'files.mkdir': async ({ envId, path }) => {
      await (await this.connectedClient(this.env(envId))).fs.createDirectory(path, { recursive: true });
      return { ok: true };
    },
    'files.rename': async ({ envId, from, to }) => {
      await (await this.connectedClient(this.env(envId))).fs.rename(from, to);
      return { ok: true };
    },
    'files.delete': async ({ envId, path }) => {
      if (path === '/') throw new AppError('invalidInput', 'Refusing to delete the root folder.');
      await (await this.connectedClient(this.env(envId))).fs.remove(path, { recursive: true, force: false });
      return { ok: true };
    },

    'transfers.startUpload': async ({ envId, remotePath, totalBytes }) => {
      const client = await this.connectedClient(this.env(envId));
      const buffer = new UploadBuffer(totalBytes, UPLOAD_BUFFER_LIMIT_BYTES);
      return this.transfers.add(
        { envId, direction: 'upload', remotePath, name: baseName(remotePath), totalBytes },
        {
          upload: buffer,
          run: (signal, progress) =>
            runUpload({ client, remotePath, totalBytes, source: buffer, signal, progress }),
        },
      );
    },
    'transfers.uploadChunk': async ({ id, offset, dataBase64, last }) => {
      await this.transfers.upload(id).push(offset, Buffer.from(dataBase64, 'base64'), last);
      return { ok: true };
    },
    'transfers.startDownload': async ({ envId, remotePath }) => {
      const client = await this.connectedClient(this.env(envId));
      const meta = await client.fs.getMetadata(remotePath);
      if (meta.isDirectory)
        throw new AppError('invalidInput', `${remotePath} is a folder; only files can be downloaded.`);
      const init = {
        envId,
        direction: 'download' as const,
        remotePath,
        name: baseName(remotePath),
        totalBytes: meta.size,
      };
      const cancel = new AbortController();
      const prepared = await this.options.host.downloads.begin({
        name: init.name,
        size: meta.size,
        signal: cancel.signal,
      });
      if (!prepared) return { transfer: this.transfers.addCancelled(init), url: null };
      const transfer = this.transfers.add(init, {
        run: async (signal, progress) => {
          signal.addEventListener('abort', () => cancel.abort(), { once: true });
          const target = await prepared.target;
          let done = 0;
          try {
            await client.fs.readStream(
              remotePath,
              async (chunk) => {
                await target.write(chunk);
                done += chunk.byteLength;
                progress(done);
              },
              { signal },
            );
            await target.finish();
          } catch (error) {
            target.abort(errorMessage(error));
            throw error;
          }
        },
      });
      return { transfer, url: prepared.url };
    },
    'transfers.list': () => this.transfers.list(),
    'transfers.cancel': ({ id }) => {
      this.transfers.cancel(id);
      return { ok: true };
    },
    'transfers.clearFinished': () => {
      this.transfers.clearFinished();
      return { ok: true };
    },

    'settings.get': () => ({ ...this.settings }),
    'settings.update': async (patch) => {
      this.settings = { ...this.settings, ...patch };
      await this.save();
      this.broadcast('settings.changed', { ...this.settings });
      return { ...this.settings };
    },

    'app.notices': () => [...this.notices],
    'app.dismissNotice': ({ id }) => {
      const index = this.notices.findIndex((n) => n.id === id);
      if (index >= 0) this.notices.splice(index, 1);
      return { ok: true };
    },

    'shell.openExternal': async ({ url }) => {
      const protocol = new URL(url).protocol;
      if (protocol !== 'http:' && protocol !== 'https:') {
        throw new AppError('invalidInput', 'Only http and https links can be opened.');
      }
      await this.options.host.openExternal(url);
      return { ok: true };
    },
  };

  /** Network came back or the machine woke up: retry every enabled environment now. */
  reconnectAll(): void {
    for (const env of this.envs.values()) if (env.stored.enabled) this.reconnect(env);
  }

  private reconnect(env: EnvironmentRuntime): void {
    if (env.currentClient) env.reconnectNow();
    else if (env.stored.enabled) void env.connect();
  }

  private runtimeFor(stored: StoredEnvironment, hasToken: boolean): EnvironmentRuntime {
    return new EnvironmentRuntime(stored, hasToken, {
      createClient: this.options.createClient,
      transport: async (s) => {
        const token = s.settings.kind === 'ws' ? await this.options.secrets.get(secretKey(s.id)) : null;
        return transportFor(s.settings, token, this.options.localServer);
      },
      bufferedBytes: (env) => this.bufferedBytes(env),
      changed: (view) => this.broadcast('environments.changed', view),
    });
  }

  private async startProcess(
    env: EnvironmentRuntime,
    client: ExecServerClientApi,
    base: Omit<ProcessStartOptions, 'processId'>,
  ): Promise<ProcessView> {
    const flowControl = client.hasCapability(TetherCapability.flowControl);
    const options: ProcessStartOptions & { processId: string } = {
      ...base,
      processId: `p-${randomUUID()}`,
      inheritEnv: true,
      pipeStdin: !base.tty,
      ...(flowControl ? { outputWindowBytes: SERVER_OUTPUT_WINDOW_BYTES } : {}),
    };
    const resizable = base.tty && client.hasCapability(TetherCapability.processResize);
    const runtime: ProcessRuntime = new ProcessRuntime(env.id, options, resizable, {
      changed: (view) => this.broadcast('processes.changed', view),
      appended: (bytes) => {
        for (const link of this.links) link.notify(bytes);
        this.consumed(env.id, runtime.processId);
        if (bytes > 0) env.emitThrottled();
      },
    });
    env.processes.set(runtime.processId, runtime);
    for (const link of this.links) link.subscribe(env.id, runtime.processId);
    this.broadcast('processes.changed', runtime.snapshot);
    try {
      runtime.attach(await client.startProcess(options));
    } catch (error) {
      runtime.startFailed(`Could not start ${options.argv[0]}: ${(error as Error).message}`);
    }
    return runtime.snapshot;
  }

  /** Acknowledges to the server what every following renderer has consumed. */
  private consumed(envId: string, processId: string): void {
    const runtime = this.envs.get(envId)?.processes.get(processId);
    if (!runtime) return;
    let frontier = runtime.log.totalBytes;
    for (const link of this.links) {
      const offset = link.consumedOffset(envId, processId);
      if (offset !== null) frontier = Math.min(frontier, offset);
    }
    runtime.acknowledge(frontier);
    this.envs.get(envId)?.emitThrottled();
  }

  private bufferedBytes(env: EnvironmentRuntime): number {
    let total = 0;
    for (const p of env.processes.values()) {
      let sent = p.log.totalBytes;
      for (const link of this.links) sent = Math.min(sent, link.sentOffset(env.id, p.processId) ?? sent);
      // Output dropped from the log is no longer held for anyone (it becomes a gap event).
      total += p.log.totalBytes - Math.max(sent, p.log.droppedThroughOffset);
    }
    return total;
  }

  private markLost(env: EnvironmentRuntime, message: string): void {
    for (const p of env.processes.values()) if (p.running) p.lost(message);
  }

  private dropProcess(env: EnvironmentRuntime, runtime: ProcessRuntime): void {
    runtime.dispose();
    env.processes.delete(runtime.processId);
    for (const link of this.links) link.forget(env.id, runtime.processId);
    this.broadcast('processes.removed', { envId: env.id, processId: runtime.processId });
  }

  private async applyToken(env: EnvironmentRuntime, draft: EnvironmentDraft): Promise<void> {
    if (draft.token === undefined) return;
    if (draft.token === null || draft.token === '') {
      await this.options.secrets.delete(secretKey(env.id));
      env.hasToken = false;
    } else {
      await this.options.secrets.set(secretKey(env.id), draft.token);
      env.hasToken = true;
    }
  }

  private async connectedClient(env: EnvironmentRuntime): Promise<ExecServerClientApi> {
    const client = env.requireClient();
    if (client.state.kind !== 'connected') await client.connect();
    return client;
  }

  private liveHandle(envId: string, processId: string) {
    const handle = this.process(envId, processId).live;
    if (!handle) throw new AppError('conflict', 'The process has ended; restart it to run it again.');
    return handle;
  }

  private env(id: string): EnvironmentRuntime {
    const env = this.envs.get(id);
    if (!env) throw notFound(`The environment ${id}`);
    return env;
  }

  private process(envId: string, processId: string): ProcessRuntime {
    const runtime = this.env(envId).processes.get(processId);
    if (!runtime) throw notFound(`The process ${processId}`);
    return runtime;
  }

  private save(): Promise<void> {
    return this.store.save({
      version: CONFIG_VERSION,
      environments: [...this.envs.values()].map((e) => e.stored),
      settings: this.settings,
    });
  }

  private notify(level: AppNotice['level'], message: string): void {
    const notice: AppNotice = { id: randomUUID(), level, message, at: Date.now() };
    this.notices.push(notice);
    this.broadcast('app.notice', notice);
  }

  private broadcast<N extends EventName>(name: N, payload: EventPayload<N>): void {
    for (const link of this.links) link.emit(name, payload);
  }
}

function secretKey(envId: string): string {
  return `environment-token:${envId}`;
}

function checkSettings(settings: EnvironmentSettings): void {
  if (settings.kind === 'command') splitCommandLine(settings.commandLine);
  if (settings.kind === 'ws') {
    let url: URL;
    try {
      url = new URL(settings.url);
    } catch {
      throw new AppError('invalidInput', `"${settings.url}" is not a URL; use the form ws://host:port.`);
    }
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
      throw new AppError('invalidInput', `"${settings.url}" must start with ws:// or wss://.`);
    }
  }
}

function homeOf(client: ExecServerClientApi): { home: string; cwd: string } {
  const info = client.environmentInfo;
  const toPath = (uri: string | null | undefined): string | null => {
    if (!uri) return null;
    try {
      return fromPathUri(uri);
    } catch {
      return null;
    }
  };
  const home = toPath(info?.userHomeDir) ?? toPath(info?.cwd) ?? '/';
  return { home, cwd: toPath(info?.cwd) ?? home };
}
