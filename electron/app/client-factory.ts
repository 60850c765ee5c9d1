// The production ClientFactory: one RemoteExecServerClient per environment, logging to stderr.
import type { TransportSpec } from '../client/api';
import { RemoteExecServerClient } from '../client/remote-client';
import type { ClientFactory } from './environment-runtime';

export function remoteClientFactory(
  log: (line: string) => void = (line) => console.error(line),
): ClientFactory {
  return (transport: TransportSpec, options = {}) =>
    new RemoteExecServerClient({ transport, log, ...options });
}
