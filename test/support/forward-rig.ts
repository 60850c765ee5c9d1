// The shared set-up of the port-forwarding test files: one Tether ws server, an echo server on
// 127.0.0.1, and the clients and forwards a file opens, all closed after it.
import type net from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { PortForward } from '../../electron/client/forwarding/port-forward';
import { RemoteExecServerClient } from '../../electron/client/link/remote-client';
import { startServer, TETHER_BIN, type StartedServer } from './exec-servers';
import { tcpServer } from './forward-peers';

export interface ForwardRig {
  readonly server: StartedServer;
  /** Echoes everything, and ends its side once the client ended its own. */
  readonly echo: net.Server;
  newClient(transport: 'ws' | 'stdio', url?: string): RemoteExecServerClient;
  forward(
    client: RemoteExecServerClient,
    port: number,
    options?: { host?: string; linkWaitMs?: number },
  ): Promise<PortForward>;
}

/** Registers the file's beforeAll/afterAll; the rig's server and echo exist once beforeAll ran. */
export function useForwardRig(): ForwardRig {
  let server: StartedServer | null = null;
  let echo: net.Server | null = null;
  const forwards: PortForward[] = [];
  const clients: RemoteExecServerClient[] = [];

  beforeAll(async () => {
    server = await startServer('tether', 'ws');
    echo = await tcpServer('127.0.0.1', (socket) => socket.pipe(socket));
  });

  afterAll(async () => {
    for (const forward of forwards) await forward.stop();
    for (const client of clients) await client.close();
    echo?.close();
    await server?.stop();
  });

  const started = <T>(value: T | null, what: string): T => {
    if (value === null) throw new Error(`the forward rig's ${what} is not started (beforeAll)`);
    return value;
  };

  return {
    get server() {
      return started(server, 'server');
    },
    get echo() {
      return started(echo, 'echo server');
    },
    newClient(transport, url) {
      const client = new RemoteExecServerClient({
        transport:
          transport === 'ws'
            ? started(server, 'server').transportSpec(url)
            : { kind: 'stdio', command: [process.execPath, TETHER_BIN, 'exec-server', '--listen', 'stdio'] },
      });
      clients.push(client);
      return client;
    },
    async forward(client, port, options = {}) {
      const forward = await PortForward.start(client, {
        target: { host: options.host ?? 'localhost', port },
        localPort: 0,
        ...(options.linkWaitMs !== undefined ? { linkWaitMs: options.linkWaitMs } : {}),
      });
      forwards.push(forward);
      return forward;
    },
  };
}
