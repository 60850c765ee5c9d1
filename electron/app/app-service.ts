// The AppService: everything the UI can do — environments, processes, files, transfers, settings —
// implemented over one reconnecting client per environment, and the event stream back to every
// attached renderer. Framework-free: hosts inject secrets, the client factory and host services.
// This is the composition root: each namespace's commands live in its *-handlers.ts file, and each
// piece of state has one owner, wired together here.
import type { Settings } from '../../shared/ipc';
import { AppConfig } from './app-config';
import { appHandlers } from './app-handlers';
import type { CommandHandlers } from './command-handlers';
import { ConfigStore, type StoredEnvironment } from './config-store';
import { environmentHandlers } from './environment-handlers';
import { EnvironmentRegistry } from './environment-registry';
import { EnvironmentRuntime, type ClientFactory } from './environment-runtime';
import { EnvironmentTokens } from './environment-tokens';
import { fileHandlers } from './file-handlers';
import type { HostServices } from './host-services';
import { SHUTDOWN_CLEANUP_TIMEOUT_MS, SHUTDOWN_TIMEOUT_MS } from './limits';
import type { LocalServerCommand } from './local-server';
import { NoticeBoard } from './notice-board';
import { ProcessFlow } from './process-flow';
import { processHandlers } from './process-handlers';
import { RendererFanout } from './renderer-fanout';
import type { EventSink, RendererLink } from './renderer-link';
import type { SecretStore } from './secret-store';
import { transferHandlers } from './transfer-handlers';
import { TransferQueue } from './transfer-queue';
import { transportFor } from './transport-spec';

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
  readonly handlers: CommandHandlers;
  private readonly envs = new EnvironmentRegistry();
  private readonly renderers = new RendererFanout();
  private readonly flow = new ProcessFlow(this.envs, this.renderers);
  private readonly notices = new NoticeBoard((notice) => this.renderers.broadcast('app.notice', notice));
  private readonly transfers = new TransferQueue((view) =>
    this.renderers.broadcast('transfers.changed', view),
  );
  private readonly tokens: EnvironmentTokens;
  private readonly config: AppConfig;
  private closed = false;

  private constructor(
    private readonly options: AppServiceOptions,
    store: ConfigStore,
    settings: Settings,
  ) {
    this.tokens = new EnvironmentTokens(options.secrets);
    this.config = new AppConfig(store, settings, () => this.envs.stored());
    const { envs, flow, renderers, tokens, config } = this;
    this.handlers = {
      ...environmentHandlers({
        envs,
        flow,
        renderers,
        tokens,
        save: () => config.save(),
        newRuntime: (stored, hasToken) => this.newRuntime(stored, hasToken),
        createClient: options.createClient,
        localServer: options.localServer,
      }),
      ...processHandlers({ envs, flow }),
      ...fileHandlers(envs),
      ...transferHandlers({ envs, transfers: this.transfers, downloads: options.host.downloads }),
      ...appHandlers({
        config,
        notices: this.notices,
        renderers,
        host: options.host,
        tokenProtection: options.secrets.protection,
      }),
    };
  }

  static async create(options: AppServiceOptions): Promise<AppService> {
    const store = new ConfigStore(options.dataDir);
    const { config, problem } = await store.load();
    const service = new AppService(options, store, config.settings);
    for (const stored of config.environments) {
      service.envs.add(service.newRuntime(stored, await service.tokens.has(stored.id)));
    }
    if (problem) service.notices.post('error', problem);
    const { warning } = options.secrets.protection;
    if (warning) service.notices.post('warning', warning);
    if (options.autoConnect ?? true) {
      for (const env of service.envs.all()) if (env.stored.enabled) void env.connect();
    }
    return service;
  }

  get configFile(): string {
    return this.config.file;
  }

  /** A renderer connected: its events go to `sink`. Detach it when it goes away. */
  attach(sink: EventSink): RendererLink {
    return this.renderers.attach(sink, this.flow);
  }

  detach(link: RendererLink): void {
    this.renderers.detach(link);
    this.flow.consumedByAll();
  }

  /** The native menu chose command `id`: the renderers run it (they own the command registry). */
  menuCommand(id: string): void {
    this.renderers.broadcast('app.menuCommand', { id });
  }

  /** Network came back or the machine woke up: retry every enabled environment now. */
  reconnectAll(): void {
    this.envs.reconnectAll();
  }

  /**
   * Cancels transfers, then closes every client (stopping the Local exec-server); remote processes
   * keep running. Cancelled uploads first remove what they staged, while their links are still up.
   */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await settledWithin(this.transfers.cancelAll(), SHUTDOWN_CLEANUP_TIMEOUT_MS);
    const closing = this.envs.all().map(async (env) => {
      env.dispose();
      await env.disconnect();
    });
    await settledWithin(Promise.all(closing), SHUTDOWN_TIMEOUT_MS);
    this.renderers.closeAll();
  }

  private newRuntime(stored: StoredEnvironment, hasToken: boolean): EnvironmentRuntime {
    return new EnvironmentRuntime(stored, hasToken, {
      createClient: this.options.createClient,
      transport: async (s) => {
        const token = s.settings.kind === 'ws' ? await this.tokens.get(s.id) : null;
        return transportFor(s.settings, token, this.options.localServer);
      },
      bufferedBytes: (env) => this.flow.bufferedBytes(env),
      changed: (view) => this.renderers.broadcast('environments.changed', view),
    });
  }
}

/** Waits for `work`, but at most `timeoutMs` (quitting must not hang on a dead link). */
async function settledWithin(work: Promise<unknown>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([work.catch(() => undefined), timeout]);
  clearTimeout(timer);
}
