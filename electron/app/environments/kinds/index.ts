// The app layer's registry of environment kinds: one line per kind. Everything in the app asks
// these entries instead of telling kinds apart (docs/extending.md, "Adding an environment kind").
import type { EnvironmentKind, EnvironmentSettings } from '../../../../shared/ipc';
import { sshAppKind } from '../../ssh/ssh-kind';
import type { AppEnvironmentKind } from './app-kind';
import { commandAppKind } from './command-kind';
import { containerAppKind } from './container-kind';
import { execAppKind } from './exec-kind';
import { localAppKind } from './local-kind';
import { wsAppKind } from './ws-kind';

const APP_KINDS: { [K in EnvironmentKind]: AppEnvironmentKind<K> } = {
  local: localAppKind,
  ws: wsAppKind,
  command: commandAppKind,
  ssh: sshAppKind,
  container: containerAppKind,
  exec: execAppKind,
};

/** The entry of `kind` (the mapped type above pins each entry to its key; TypeScript cannot follow a run-time key). */
export function appKind(kind: EnvironmentKind): AppEnvironmentKind<EnvironmentKind> {
  return APP_KINDS[kind] as AppEnvironmentKind<EnvironmentKind>;
}

/** Valid settings as they are stored, through their kind's check. */
export function checkSettings(settings: EnvironmentSettings): EnvironmentSettings {
  return appKind(settings.kind).check(settings);
}
