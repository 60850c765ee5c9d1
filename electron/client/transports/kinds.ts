// The client layer's registries: one line per environment kind (settings → TransportSpec, CLI
// flags) and one per TransportSpec kind (opener, resume). Everything above asks these instead of
// telling kinds apart (docs/extending.md, "Adding an environment kind").
import type { EnvironmentKind, EnvironmentSettings } from '../../../shared/ipc';
import type { TransportSpec } from '../api';
import { commandKind } from './command/command-kind';
import { containerKind, containerTransport } from './container/container-kind';
import { execKind, execTransport } from './exec/exec-kind';
import type { ClientEnvironmentKind, SpecContext, TransportKind } from './environment-kind';
import { localKind } from './local/local-kind';
import { sshKind, sshTransport } from './ssh/ssh-kind';
import { stdioTransport } from './stdio-transport';
import { wsKind, wsTransport } from './ws/ws-kind';

const ENVIRONMENT_KINDS: { [K in EnvironmentKind]: ClientEnvironmentKind<K> } = {
  local: localKind,
  ws: wsKind,
  ssh: sshKind,
  command: commandKind,
  container: containerKind,
  exec: execKind,
};

const TRANSPORT_KINDS: { [K in TransportSpec['kind']]: TransportKind<K> } = {
  ws: wsTransport,
  stdio: stdioTransport,
  ssh: sshTransport,
  container: containerTransport,
  exec: execTransport,
};

// The mapped types above pin each entry to its key; TypeScript cannot follow that from a key
// known only at run time to the entry's settings type, hence the one widening below each.

export function clientKind(kind: EnvironmentKind): ClientEnvironmentKind<EnvironmentKind> {
  return ENVIRONMENT_KINDS[kind] as ClientEnvironmentKind<EnvironmentKind>;
}

/** The kinds in registry order (the CLI lists their flags in it). */
export function clientKinds(): Array<ClientEnvironmentKind<EnvironmentKind>> {
  return Object.values(ENVIRONMENT_KINDS) as Array<ClientEnvironmentKind<EnvironmentKind>>;
}

/** How to reach an environment with `settings`; throws ClientError('invalidArgument') if they cannot say. */
export function specFor(settings: EnvironmentSettings, context: SpecContext = {}): TransportSpec {
  return clientKind(settings.kind).toSpec(settings, context);
}

export function transportKind(kind: TransportSpec['kind']): TransportKind<TransportSpec['kind']> {
  return TRANSPORT_KINDS[kind] as TransportKind<TransportSpec['kind']>;
}
