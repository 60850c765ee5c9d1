// What every chaos test sets up: a real server behind a fault proxy, and clients through that
// proxy. Everything a test opened is closed after it, clients first, in reverse order.
import { afterEach } from 'vitest';
import type { ProcessEvent, ProcessHandle, ProcessStartOptions } from '../../electron/client/api';
import { RemoteExecServerClient, type RemoteClientOptions } from '../../electron/client/link/remote-client';
import {
  startServer,
  type ServerImpl,
  type StartedServer,
  type StartServerOptions,
} from '../support/exec-servers';
import { FaultProxy } from '../support/fault-proxy';
import { followProcess, type FollowedProcess } from './process-follower';

export interface ChaosRig {
  /** Starts a ws server of `impl` and a fault proxy in front of it. */
  serve(
    impl: ServerImpl,
    options?: StartServerOptions,
  ): Promise<{ server: StartedServer; proxy: FaultProxy }>;
  /** A Tether client whose link runs through `proxy`. */
  client(proxy: FaultProxy, options?: Omit<RemoteClientOptions, 'transport'>): RemoteExecServerClient;
}

/** Call at describe level: registers the teardown for the tests that use the returned rig. */
export function chaosRig(): ChaosRig {
  const opened: Array<() => Promise<void>> = [];
  /** The server behind each proxy, whose token a client through that proxy presents. */
  const servers = new Map<FaultProxy, StartedServer>();
  afterEach(async () => {
    for (const close of opened.splice(0).reverse()) await close();
  });
  return {
    async serve(impl, options) {
      const server = await startServer(impl, 'ws', options);
      opened.push(() => server.stop());
      const proxy = await FaultProxy.forUrl(server.url!);
      servers.set(proxy, server);
      opened.push(() => {
        servers.delete(proxy);
        return proxy.close();
      });
      return { server, proxy };
    },
    client(proxy, options = {}) {
      const server = servers.get(proxy);
      if (!server) throw new Error('rig.client needs a proxy made by rig.serve');
      const client = new RemoteExecServerClient({ transport: server.transportSpec(proxy.url()), ...options });
      opened.push(() => client.close());
      return client;
    },
  };
}

/**
 * Starts a process through `client` in `server`'s home with a minimal PATH, on pipes unless
 * `options` say otherwise, and follows it from its first event.
 */
export async function startFollowed(
  client: RemoteExecServerClient,
  server: StartedServer,
  options: Omit<ProcessStartOptions, 'cwd' | 'tty'> & { tty?: boolean },
  onEvent?: (event: ProcessEvent, handle: ProcessHandle) => void,
): Promise<{ handle: ProcessHandle; followed: FollowedProcess }> {
  const handle = await client.startProcess({
    cwd: server.home,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    tty: false,
    ...options,
  });
  return { handle, followed: followProcess(handle, (event) => onEvent?.(event, handle)) };
}
