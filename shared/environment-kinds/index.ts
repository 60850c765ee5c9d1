// The environment kinds' settings, one schema per kind (each in its own file here). This is the
// shared layer's registry: a new kind adds its file and one line to ENVIRONMENT_SETTINGS below;
// the client and app layers have one registry line each (docs/extending.md).
import { z } from 'zod';
import { CommandSettings } from './command-settings';
import { ContainerSettings } from './container-settings';
import { ExecSettings } from './exec-settings';
import { LocalSettings } from './local-settings';
import { SshSettings } from './ssh-settings';
import { WsSettings } from './ws-settings';

export { CONTAINER_ENGINES, CONTAINER_NAME, ContainerEngine, ContainerHost } from './container-settings';
export { SSH_SESSION_TTL_MAX_MS, SSH_SESSION_TTL_MIN_MS } from './ssh-settings';

/** Settings per kind. Tokens are write-only: the UI sends one, and only learns whether one is stored. */
export const EnvironmentSettings = z.discriminatedUnion('kind', [
  LocalSettings,
  WsSettings,
  CommandSettings,
  SshSettings,
  ContainerSettings,
  ExecSettings,
]);
export type EnvironmentSettings = z.infer<typeof EnvironmentSettings>;

export type EnvironmentKind = EnvironmentSettings['kind'];
export const EnvironmentKind = z.enum(
  EnvironmentSettings.options.map((o) => o.shape.kind.value) as [EnvironmentKind, ...EnvironmentKind[]],
);

/** The settings of one kind. */
export type SettingsOf<K extends EnvironmentKind> = Extract<EnvironmentSettings, { kind: K }>;
