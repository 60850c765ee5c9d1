// An AppService with one remote environment, for tests of what the app does over a real link:
// an exec-server (Tether's by default, or codex's) on ws behind a fault proxy, added as "Remote" with its token and connected, before
// each test of the calling describe block; everything closed after it.
import { afterEach, beforeEach } from 'vitest';
import type { TransferView } from '../../../shared/ipc';
import type { ServerImpl, StartedServer } from '../../support/exec-servers';
import type { FaultProxy } from '../../support/fault-proxy';
import { startProxiedServer, type ProxiedServer } from '../../support/proxied-server';
import type { BackoffSchedule } from '../../../electron/client/link/backoff';
import { createHarness, waitFor, type Harness } from './app-harness';

export interface RemoteAppRig {
  readonly server: StartedServer;
  readonly proxy: FaultProxy;
  readonly h: Harness;
  readonly envId: string;
  /** The latest view of transfer `id` the app broadcast. */
  transfer(id: string): TransferView | undefined;
}

export interface RemoteAppRigOptions {
  /** Which exec-server the environment reaches (default Tether's). */
  impl?: ServerImpl;
  /** Extra `tether exec-server` arguments, e.g. a short `--session-ttl-ms`. */
  serverArgs?: string[];
  /** Variables the server runs with (and its processes inherit), e.g. a PATH without some tools. */
  serverEnv?: NodeJS.ProcessEnv;
  backoff?: BackoffSchedule;
}

export function remoteAppRig(options: RemoteAppRigOptions = {}): RemoteAppRig {
  let remote: ProxiedServer | undefined;
  let h: Harness | undefined;
  let envId = '';
  beforeEach(async () => {
    remote = await startProxiedServer(options.impl ?? 'tether', options);
    const { server, proxy } = remote;
    const harness = await createHarness({
      autoConnect: false,
      ...(options.backoff ? { backoff: options.backoff } : {}),
    });
    h = harness;
    envId = (
      await harness.invoke('environments.add', {
        name: 'Remote',
        color: '#336699',
        settings: { kind: 'ws', url: proxy.url() },
        token: server.token,
      })
    ).id;
    await waitFor(
      async () =>
        (await harness.invoke('environments.list', {})).find((e) => e.id === envId)?.link.kind ===
        'connected',
      'remote connected',
    );
  });
  afterEach(async () => {
    await h?.close();
    await remote?.stop();
  });
  return {
    get server() {
      return remote!.server;
    },
    get proxy() {
      return remote!.proxy;
    },
    get h() {
      return h!;
    },
    get envId() {
      return envId;
    },
    transfer: (id) =>
      h!
        .eventsNamed('transfers.changed')
        .filter((t) => t.id === id)
        .at(-1),
  };
}
