// What the environment dialog knows of a kind of environment (SSH, WebSocket, command, this
// machine): its fields as the form holds them, to and from settings, the checks before a test or a
// save, and the component that shows them. The dialog itself never asks which kind it has.
import type { ComponentType } from 'react';
import type { EnvironmentSettings, EnvironmentView, SshConnectView } from '../../../shared/ipc';

/** Problems with a kind's fields, by field name, worded for the user. */
export type FieldErrors = Partial<Record<string, string>>;

export interface KindFieldsProps<F> {
  fields: F;
  onChange: (fields: F) => void;
  errors: FieldErrors;
  /** The environment being edited (absent when adding one). */
  existing: EnvironmentView | undefined;
  /** The pinned certificate (SHA-256) and a way to forget it. */
  pin: string | null;
  forgetPin: () => void;
  /** A name for the environment, taken when it has none yet (an SSH host's alias). */
  suggestName: (name: string) => void;
}

export interface KindForm<F> {
  /** The "Connect via" option. */
  label: string;
  /** Whether the user can pick the kind (this machine is given, never picked). */
  pickable: boolean;
  /** Whether "Test connection" applies. */
  testable: boolean;
  fromSettings: (settings: EnvironmentSettings | undefined) => F;
  /** The settings the fields stand for, or null while they do not stand for any. */
  toSettings: (fields: F, pin: string | null) => EnvironmentSettings | null;
  /** What a test needs: problems with the address. Empty when it can be tried. */
  check: (fields: F) => FieldErrors;
  /** What only a save needs besides (a token the edited URL must be given again). */
  /** `pin`: the certificate the settings will be saved with (a token is bound to it too). */
  checkSave?: (fields: F, existing: EnvironmentView | undefined, pin: string | null) => FieldErrors;
  /** The secret a draft carries beside the settings. */
  token?: (fields: F) => string | undefined;
  /** Whether the address may need its certificate pinned (wss://). */
  pinnable?: (fields: F) => boolean;
  /** The pin saved in an environment's settings of this kind. */
  pinOf?: (settings: EnvironmentSettings) => string | null;
  Fields: ComponentType<KindFieldsProps<F>>;
  /** Shows a test's live stages, for a kind that reports them. */
  Stages?: ComponentType<{ progress: SshConnectView }>;
}
