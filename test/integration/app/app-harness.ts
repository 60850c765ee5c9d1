// Test harness for the AppService: a real AppService on a temp data dir (Local environment = a real
// `bin/tether.js exec-server --listen stdio`), one attached renderer link recording every event,
// and invoke() going through the same dispatcher the hosts use.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type {
  CommandInput,
  CommandName,
  CommandOutput,
  EventName,
  EventPayload,
  ProcessEventBatch,
  ProcessEventView,
} from '../../../shared/ipc';
import { IpcError } from '../../../shared/ipc';
import { AppService } from '../../../electron/app/app-service';
import { remoteClientFactory } from '../../../electron/app/environments/client-factory';
import type { BackoffSchedule } from '../../../electron/client/link/backoff';
import { dispatch } from '../../../electron/app/handlers/dispatcher';
import { fileDownloadTarget } from '../../../electron/app/files/file-download-target';
import { FileSecretStore } from '../../../electron/app/persistence/file-secret-store';
import { localFolderTarget } from '../../../electron/app/files/folder-download-target';
import { localServerCommand } from '../../../electron/app/environments/local-server';
import type { DownloadHost } from '../../../electron/app/host-services';
import type { RendererFeed } from '../../../electron/app/processes/renderer-link';
import type { SecretStore } from '../../../electron/app/persistence/secret-store';
import type { SshConfigLocation } from '../../../electron/app/ssh/ssh-hosts';
import { REPO_ROOT } from '../../support/exec-servers';
import { waitFor } from '../../support/wait';

interface RecordedEvent {
  name: EventName;
  payload: unknown;
}

export interface Harness {
  service: AppService;
  dataDir: string;
  feed: RendererFeed;
  events: RecordedEvent[];
  invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>>;
  /** Raw dispatch result, for error tests. */
  raw(name: unknown, input: unknown): ReturnType<typeof dispatch>;
  eventsNamed<N extends EventName>(name: N): Array<EventPayload<N>>;
  close(options?: { keepDataDir?: boolean }): Promise<void>;
}

export async function createHarness(
  options: {
    dataDir?: string;
    autoConnect?: boolean;
    /** Start the Local server as the Electron app does (with its ELECTRON_RUN_AS_NODE=1). */
    electronLocalServer?: boolean;
    /** The host's link opener (by default one that does nothing). */
    openExternal?: (url: string) => Promise<void>;
    secrets?: SecretStore;
    /** The ssh client config the host picker lists (a temp one; never the real ~/.ssh/config). */
    sshConfig?: SshConfigLocation;
    /** The reconnect backoff of every environment's client (default: the client's own). */
    backoff?: BackoffSchedule;
    /** Where downloads go (default: `<dataDir>/downloaded-<name>`, a file or a folder). */
    downloads?: DownloadHost;
    /** The bound on all processes' retained output together (default: the app's). */
    outputLogCapBytes?: number;
  } = {},
): Promise<Harness> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'tether-app-'));
  const service = await AppService.create({
    dataDir,
    secrets: options.secrets ?? new FileSecretStore(path.join(dataDir, 'tokens.json')),
    createClient: remoteClientFactory(() => undefined, options.backoff ? { backoff: options.backoff } : {}),
    localServer: localServerCommand({
      packageRoot: REPO_ROOT,
      execPath: process.execPath,
      electron: options.electronLocalServer ?? false,
    }),
    host: {
      openExternal: options.openExternal ?? (async () => undefined),
      downloads: options.downloads ?? {
        begin: async ({ name }) => ({
          url: null,
          target: fileDownloadTarget(path.join(dataDir, `downloaded-${name}`)),
        }),
        beginFolder: async ({ name }) => ({
          url: null,
          target: Promise.resolve(localFolderTarget(path.join(dataDir, `downloaded-${name}`))),
        }),
      },
    },
    autoConnect: options.autoConnect ?? true,
    ...(options.sshConfig ? { sshConfig: options.sshConfig } : {}),
    ...(options.outputLogCapBytes !== undefined ? { outputLogCapBytes: options.outputLogCapBytes } : {}),
  });
  const events: RecordedEvent[] = [];
  const feed = service.attach((name, payload) => events.push({ name, payload }));
  const raw = (name: unknown, input: unknown) => dispatch(service.handlers, feed, name, input);
  return {
    service,
    dataDir,
    feed,
    events,
    raw,
    async invoke(name, input) {
      const result = await raw(name, input);
      if (!result.ok) throw new IpcError(result.error.code, result.error.message);
      return result.output as never;
    },
    eventsNamed(name) {
      return events.filter((e) => e.name === name).map((e) => e.payload as never);
    },
    async close(closeOptions = {}) {
      await service.shutdown();
      if (!closeOptions.keepDataDir)
        rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}

export { waitFor };

/** The events of `processId` the app broadcast to its renderers so far, in order. */
export function eventsOf(h: Harness, processId: string): ProcessEventView[] {
  return (h.eventsNamed('processes.events') as ProcessEventBatch[][])
    .flat()
    .filter((batch) => batch.processId === processId)
    .flatMap((batch) => batch.events);
}

/** The output among `events`, decoded. */
export function outputText(events: ProcessEventView[], encoding: BufferEncoding = 'utf8'): string {
  return events.map((e) => (e.kind === 'output' ? Buffer.from(e.data).toString(encoding) : '')).join('');
}

/** The output of `processId` the app broadcast to its renderers so far, decoded. */
export function outputOf(h: Harness, processId: string): string {
  return outputText(eventsOf(h, processId));
}

/** A harness with its Local environment connected, and a temporary folder for the test's files. */
export interface LocalApp {
  h: Harness;
  dir: string;
  /** Shuts the app down and removes the folder. */
  close(): Promise<void>;
}

export async function startLocalApp(dirPrefix: string): Promise<LocalApp> {
  const h = await createHarness();
  const dir = mkdtempSync(path.join(os.tmpdir(), dirPrefix));
  await waitFor(
    async () => (await h.invoke('environments.list', {}))[0]?.link.kind === 'connected',
    'local connected',
  );
  return {
    h,
    dir,
    async close() {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
