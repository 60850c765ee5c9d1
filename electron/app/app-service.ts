// The AppService: everything the UI can do — environments, processes, files, transfers, settings —
// implemented over one reconnecting client per environment, and the event stream back to every
// attached renderer. Framework-free: hosts inject secrets, the client factory and host services.
// This is the composition root: each namespace's commands live in its *-handlers.ts file, and each
// piece of state has one owner, wired together here.
import type { EnvironmentSettings, Settings } from '../../shared/ipc';
import type { TransportSpec } from '../client/api';
import { AppConfig } from './persistence/app-config';
import { appHandlers } from './handlers/app-handlers';
import type { CommandHandlers } from './handlers/command-handlers';
import { ConfigStore, type StoredEnvironment } from './persistence/config-store';
import { environmentHandlers } from './handlers/environment-handlers';
import { EnvironmentRegistry } from './environments/environment-registry';
import { EnvironmentRuntime, type ClientFactory } from './environments/environment-runtime';
import { EnvironmentTokens } from './environments/environment-tokens';
import { editorHandlers } from './handlers/editor-handlers';
import { fileHandlers } from './handlers/file-handlers';
import type { HostServices } from './host-services';
import { PROCESS_LOGS_TOTAL_LIMIT_BYTES, SHUTDOWN_CLEANUP_TIMEOUT_MS, SHUTDOWN_TIMEOUT_MS } from './limits';
import { layoutHandlers } from './handlers/layout-handlers';
import { LayoutStore } from './persistence/layout-store';
import type { LocalServerCommand } from './environments/local-server';
import { NoticeBoard } from './notice-board';
import { ProcessFlow } from './processes/process-flow';
import { OutputLogCap } from './processes/process-log';
import { processHandlers } from './handlers/process-handlers';
import { quitWarning, type QuitWarning } from './environments/quit-warning';
import { UnsavedEdits } from './files/unsaved-edits';
import { RendererFanout } from './processes/renderer-fanout';
import { SavedSessions } from './persistence/saved-sessions';
import { SessionKeeper } from './environments/session-keeper';
import type { EventSink, RendererFeed } from './processes/renderer-link';
import type { SecretStore } from './persistence/secret-store';
import { searchHandlers } from './handlers/search-handlers';
import { containerHandlers } from './handlers/container-handlers';
import { forwardHandlers } from './handlers/forward-handlers';
import { previewHandlers } from './handlers/preview-handlers';
import { ForwardManager } from './forwarding/forward-manager';
import { PrintedPortForwarder } from './forwarding/printed-ports';
import { SocketPortForwarder } from './forwarding/socket-ports';
import { DetectionNotices } from './forwarding/detection-notices';
import { sshHandlers } from './handlers/ssh-handlers';
import { userSshConfig, type SshConfigLocation } from './ssh/ssh-hosts';
import { SshPromptBroker } from './ssh/ssh-prompts';
import { transferHandlers } from './handlers/transfer-handlers';
import { TransferQueue } from './files/transfer-queue';
import { transportFor } from './environments/transport-spec';
import { appKind } from './environments/kinds';

export interface AppServiceOptions {
  /** Where the config file lives (created if missing). */
  dataDir: string;
  secrets: SecretStore;
  createClient: ClientFactory;
  localServer: LocalServerCommand;
  host: HostServices;
  /** Connect enabled environments at start (default true). */
  autoConnect?: boolean;
  /** The ssh client config the host picker lists (default: ~/.ssh/config of $HOME). */
  sshConfig?: SshConfigLocation;
  /** The bound on all processes' retained output together (default PROCESS_LOGS_TOTAL_LIMIT_BYTES; tests lower it). */
  outputLogCapBytes?: number;
}

export class AppService {
  readonly handlers: CommandHandlers;
  private readonly envs = new EnvironmentRegistry();
  private readonly renderers = new RendererFanout();
  private readonly flow: ProcessFlow;
  private readonly unsavedEdits = new UnsavedEdits();
  private readonly notices = new NoticeBoard((notice) => this.renderers.broadcast('app.notice', notice));
  private readonly keeper: SessionKeeper;
  private readonly transfers = new TransferQueue((view) =>
    this.renderers.broadcast('transfers.changed', view),
  );
  private readonly prompts = new SshPromptBroker({
    opened: (view) => this.renderers.broadcast('ssh.prompt', view),
    closed: (id) => this.renderers.broadcast('ssh.promptClosed', { id }),
  });
  private readonly tokens: EnvironmentTokens;
  private readonly config: AppConfig;
  private readonly forwards: ForwardManager;
  private readonly socketPorts: SocketPortForwarder;
  private readonly detectionNotices: DetectionNotices;
  private closed = false;

  private get sshConfig(): SshConfigLocation {
    return this.options.sshConfig ?? userSshConfig();
  }

  /** What an environment's settings connect with, without its token. */
  private specOf(settings: EnvironmentSettings): TransportSpec {
    return transportFor(settings, null, this.options.localServer, this.sshConfig);
  }

  private constructor(
    private readonly options: AppServiceOptions,
    store: ConfigStore,
    settings: Settings,
  ) {
    this.flow = new ProcessFlow(
      this.envs,
      this.renderers,
      () => this.keeper.changed(),
      new OutputLogCap(options.outputLogCapBytes ?? PROCESS_LOGS_TOTAL_LIMIT_BYTES),
    );
    this.keeper = new SessionKeeper(
      new SavedSessions(options.dataDir),
      this.envs,
      this.flow,
      (settings) => this.specOf(settings),
      (message) => this.notices.post('warning', message),
    );
    this.tokens = new EnvironmentTokens(options.secrets);
    this.config = new AppConfig(store, settings, () => this.envs.stored());
    this.forwards = new ForwardManager({
      envs: this.envs,
      save: () => this.config.save(),
      changed: (envId, forwards) => this.renderers.broadcast('forwards.changed', { envId, forwards }),
      stoppedByHand: (envId, forward) => this.socketPorts.stoppedByHand(envId, forward),
    });
    this.detectionNotices = new DetectionNotices({
      list: (envId) => this.forwards.list(envId),
      send: (envId, forwards) => this.renderers.broadcast('forwards.detected', { envId, forwards }),
      settling: (envId) => this.socketPorts.isSettling(envId),
    });
    // Ports are detected (and forwarded by themselves) only on remote hosts: Local's already work here.
    const wanted = (envId: string) => this.envs.find(envId)?.stored.settings.kind !== 'local';
    this.flow.watchOutput(
      new PrintedPortForwarder({
        wanted,
        list: (envId) => this.forwards.list(envId),
        add: (envId, port, process) =>
          this.forwards.add(
            envId,
            { host: 'localhost', port, label: process.title },
            // Who listens is not known yet (the printer is often a shell): a scan says (socket-ports.ts).
            { foundBy: 'printedUrl', process: null },
          ),
        stop: (envId, id) => this.forwards.stop(envId, id),
        detected: (envId, forward) => {
          this.detectionNotices.detected(envId, forward);
          this.socketPorts.scanSoon(envId);
        },
        failed: (message) => this.notices.post('warning', message),
      }),
    );
    this.socketPorts = new SocketPortForwarder({
      wanted,
      connectedClient: (envId) => {
        const client = this.envs.find(envId)?.currentClient;
        return client?.state.kind === 'connected' ? client : null;
      },
      processes: (envId) => [...(this.envs.find(envId)?.processes.values() ?? [])].map((p) => p.snapshot),
      list: (envId) => this.forwards.list(envId),
      add: (envId, port, origin) =>
        this.forwards.add(
          envId,
          { host: 'localhost', port, label: (origin.process?.name ?? '').slice(0, 100) },
          origin,
        ),
      stop: (envId, id) => this.forwards.stop(envId, id),
      identify: (envId, id, process) => this.forwards.identify(envId, id, process),
      detected: (envId, forward) => this.detectionNotices.detected(envId, forward),
      failed: (message) => this.notices.post('warning', message),
    });
    this.flow.watchOutput(this.socketPorts);
    const { envs, flow, renderers, tokens, config } = this;
    options.host.previews?.listen((event) => renderers.broadcast(event.name, event.payload));
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
        sshConfig: this.sshConfig,
        prompts: this.prompts,
        environmentRemoved: (id) => {
          this.socketPorts.environmentRemoved(id);
          this.detectionNotices.environmentRemoved(id);
          return this.forwards.environmentRemoved(id);
        },
      }),
      ...sshHandlers({
        envs,
        flow,
        prompts: this.prompts,
        sshConfig: this.sshConfig,
        save: () => config.save(),
        specOf: (env) => this.specOf(env.stored.settings),
      }),
      ...containerHandlers({ envs, specOf: (env) => this.specOf(env.stored.settings) }),
      ...processHandlers({ envs, flow, settings: () => config.settings }),
      ...fileHandlers(envs),
      ...searchHandlers(envs),
      ...forwardHandlers(this.forwards, this.socketPorts),
      ...previewHandlers(options.host.previews),
      ...editorHandlers(envs, (work) => this.transfers.trackCleanup(work)),
      ...layoutHandlers(new LayoutStore(options.dataDir)),
      ...transferHandlers({ envs, transfers: this.transfers, downloads: options.host.downloads }),
      ...appHandlers({
        config,
        notices: this.notices,
        renderers,
        host: options.host,
        tokenProtection: options.secrets.protection,
        unsavedEdits: this.unsavedEdits,
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
    const saved = await new SavedSessions(options.dataDir).load();
    service.keeper.restore(saved.sessions);
    if (saved.problem) {
      service.notices.post(
        'warning',
        `Sessions saved at the last quit could not all be restored (${saved.problem}); remote processes ` +
          'of those still running on their servers are not shown.',
      );
    }
    const { warning } = options.secrets.protection;
    if (warning) service.notices.post('warning', warning);
    if (options.autoConnect ?? true) {
      for (const env of service.envs.all()) if (env.stored.enabled) void env.connect();
    }
    // Bound at once; their connections wait for each environment's link.
    await service.forwards.restoreAll();
    return service;
  }

  get configFile(): string {
    return this.config.file;
  }

  /** A renderer connected: its events go to `sink`. Detach it when it goes away. */
  attach(sink: EventSink): RendererFeed {
    return this.renderers.attach(sink, this.flow);
  }

  detach(feed: RendererFeed): void {
    this.renderers.detach(feed);
    this.unsavedEdits.forget(feed.id);
    this.flow.consumedByAll();
    // The last window or tab closed: nobody is left to answer ssh, so its questions are cancelled.
    if (this.renderers.count === 0) this.prompts.cancelAll();
  }

  /**
   * What quitting now would lose (running processes whose server stops with the app, unsaved editor
   * changes), or null.
   */
  quitWarning(): QuitWarning | null {
    return quitWarning(this.envs, (settings) => this.specOf(settings), this.unsavedEdits.files());
  }

  /** The native menu chose command `id`: the renderers run it (they own the command registry). */
  menuCommand(id: string): void {
    this.renderers.broadcast('app.menuCommand', { id });
  }

  /** "Reconnect all": retry every enabled environment now, failed ones with a new session. */
  reconnectAll(): void {
    this.envs.reconnectAll();
  }

  /** The machine woke up, the screen was unlocked or the network came back: reconnecting ones retry now. */
  networkMayBeBack(): void {
    this.envs.networkMayBeBack();
  }

  /**
   * Cancels transfers, saves the remote sessions for the next start, then closes every client
   * (stopping the Local exec-server); remote processes keep running. Cancelled uploads first remove
   * what they staged, while their links are still up.
   */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await settledWithin(this.transfers.cancelAll(), SHUTDOWN_CLEANUP_TIMEOUT_MS);
    // Saved while every remote process is still followed: closing the clients ends that.
    await this.keeper.saveAndStop();
    this.envs.cancelRetries();
    this.socketPorts.close();
    this.detectionNotices.close();
    await this.forwards.closeAll();
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
        const token = appKind(s.settings.kind).usesToken ? await this.tokens.get(s.id) : null;
        return transportFor(s.settings, token, this.options.localServer, this.sshConfig);
      },
      bufferedBytes: (env) => this.flow.bufferedBytes(env),
      changed: (view) => this.renderers.broadcast('environments.changed', view),
      prompts: this.prompts,
      linkChanged: (env, state) => {
        this.keeper.linkChanged(env, state);
        this.socketPorts.linkChanged(env.id, state.kind === 'connected');
      },
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
