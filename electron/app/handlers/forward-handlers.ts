// forwards.* of the contract: the port forwards of each environment, owned by the ForwardManager
// (forwarding/forward-manager.ts), and the host's listening ports, which port detection scans
// (forwarding/socket-ports.ts).
import type { ForwardManager } from '../forwarding/forward-manager';
import type { SocketPortForwarder } from '../forwarding/socket-ports';
import type { NamespaceHandlers } from './command-handlers';

export type ForwardHandlers = NamespaceHandlers<'forwards'>;

export function forwardHandlers(forwards: ForwardManager, sockets: SocketPortForwarder): ForwardHandlers {
  return {
    'forwards.list': ({ envId }) => forwards.list(envId),
    'forwards.add': ({ envId, host, port, localPort, label }) =>
      forwards.add(envId, {
        host,
        port,
        ...(localPort !== undefined ? { localPort } : {}),
        ...(label !== undefined ? { label } : {}),
      }),
    'forwards.setLocalPort': ({ envId, id, localPort }) => forwards.setLocalPort(envId, id, localPort),
    'forwards.listening': ({ envId }) => sockets.listening(envId),
    'forwards.stop': async ({ envId, id }) => {
      await forwards.stop(envId, id, true);
      return { ok: true };
    },
  };
}
