// What the client layer knows of one environment kind: how its settings become a TransportSpec and
// which `tether run`/`tether cp` flags pick it. What a TransportSpec kind knows: how to open its
// links and whether a new link can resume a lost one. The registries are kinds.ts.
import type { EnvironmentKind, SettingsOf } from '../../../shared/ipc';
import type { TransportSpec } from '../api';
import type { UninstallReport } from '../remote-host/remote-uninstall';
import type { SshHooks } from './ssh/ssh-hooks';
import type { TransportOpener, TransportOpenerOptions } from './transport-types';

/** What a spec needs besides the settings, from whoever builds it (the app or the CLI). */
export interface SpecContext {
  /** A ws environment's bearer token, if one is stored. */
  token?: string | null;
  /** Read the bearer token from this file at each connect (`--token-file`). */
  tokenFile?: string;
  /** An ssh config file given explicitly (ssh -F), so an alias means the same host to all who read it. */
  sshConfigFile?: string;
  /** How the Local environment starts its server (only the app has one). */
  localServer?: { command: string[]; env?: Record<string, string> };
}

/** Parsed command-line options, as commander hands them over (keys are camelCased flag names). */
export type CliValues = Readonly<Record<string, string | string[] | boolean | undefined>>;

/** One commander option: `flags` as commander spells them (`-p, --port <port>`). */
export interface CliOption {
  flags: string;
  description: string;
  /** A repeatable option, collected into an array (default []). */
  repeatable?: boolean;
}

export interface KindCliFlags<K extends EnvironmentKind> {
  /** The flag that picks this kind, its value the kind's main setting (`--server <url>`). */
  select: CliOption;
  /** The selector as the "say where" hint shows it: `--server ws://HOST:PORT`. */
  example: string;
  /** The kind's other flags (`--token-file`, `-o`, …). */
  options: CliOption[];
  /** Settings and context from the selector's value and the options; throws ClientError('invalidArgument'). */
  fromOptions(selected: string, options: CliValues): { settings: SettingsOf<K>; context: SpecContext };
  /**
   * Kinds whose selector this kind takes as part of its own settings when both are given
   * (`--container C --ssh HOST`: the container on that host), instead of refusing two targets.
   */
  rides?: EnvironmentKind[];
  /** A flag of this kind given while another kind was picked: what is wrong, or null if harmless. */
  strayOption?(options: CliValues): string | null;
}

export interface ClientEnvironmentKind<K extends EnvironmentKind> {
  readonly kind: K;
  toSpec(settings: SettingsOf<K>, context: SpecContext): TransportSpec;
  /** Its flags; absent when the CLI cannot reach the kind (Local). */
  readonly cli?: KindCliFlags<K>;
}

export type SpecOf<K extends TransportSpec['kind']> = Extract<TransportSpec, { kind: K }>;

export interface TransportKind<K extends TransportSpec['kind']> {
  opener(spec: SpecOf<K>, options: TransportOpenerOptions): TransportOpener;
  /** Why a new link opened from `spec` cannot resume the session of a lost one, or null if it can. */
  whyLinkCannotResume(spec: SpecOf<K>): string | null;
  /** Removes what Tether installed on the target (kinds that bootstrap one). */
  uninstall?(spec: SpecOf<K>, hooks: SshHooks | undefined): Promise<UninstallReport>;
}
