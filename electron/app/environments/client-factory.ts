// The production ClientFactory: one RemoteExecServerClient per environment, logging to stderr; an
// SSH environment's client gets the hooks its bootstrap asks through.
import type { TransportSpec } from '../../client/api';
import { RemoteExecServerClient, type RemoteClientOptions } from '../../client/link/remote-client';
import type { ClientFactory } from './environment-runtime';

export function remoteClientFactory(
  log: (line: string) => void = (line) => console.error(line),
  /** Policy overrides for every client (tests inject a backoff schedule). */
  overrides: Omit<RemoteClientOptions, 'transport' | 'log'> = {},
): ClientFactory {
  return (transport: TransportSpec, options = {}) =>
    new RemoteExecServerClient({ ...overrides, transport, log, ...options });
}
