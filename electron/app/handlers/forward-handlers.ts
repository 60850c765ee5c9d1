// forwards.* of the contract: the port forwards of each environment, owned by the ForwardManager
// (forwarding/forward-manager.ts).
import type { ForwardManager } from '../forwarding/forward-manager';
import type { NamespaceHandlers } from './command-handlers';

export type ForwardHandlers = NamespaceHandlers<'forwards'>;

export function forwardHandlers(forwards: ForwardManager): ForwardHandlers {
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
    'forwards.listening': ({ envId }) => forwards.listening(envId),
    'forwards.stop': async ({ envId, id }) => {
      await forwards.stop(envId, id);
      return { ok: true };
    },
  };
}
