// An exec-server on ws behind a fault proxy: the remote end of the rigs that drive a whole app over
// a real link (`test/e2e/remote-rig.ts` for the web app in Chromium, and
// `test/integration/app/remote-app-rig.ts` for the AppService alone).
import { startServer, type ServerImpl, type StartedServer } from './exec-servers';
import { FaultProxy } from './fault-proxy';

export interface ProxiedServer {
  readonly server: StartedServer;
  readonly proxy: FaultProxy;
  /** Closes the proxy, then stops the server (by pid). */
  stop(): Promise<void>;
}

export async function startProxiedServer(
  impl: ServerImpl,
  options: { serverArgs?: string[]; serverEnv?: NodeJS.ProcessEnv } = {},
): Promise<ProxiedServer> {
  const server = await startServer(impl, 'ws', {
    extraArgs: options.serverArgs ?? [],
    ...(options.serverEnv ? { env: options.serverEnv } : {}),
  });
  let proxy: FaultProxy;
  try {
    proxy = await FaultProxy.forUrl(server.url!);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    server,
    proxy,
    async stop() {
      await proxy.close();
      await server.stop();
    },
  };
}
