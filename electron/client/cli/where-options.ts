// The options that say where to connect, shared by `tether run`, `tether ssh` and `tether cp`:
// each environment kind brings its own flags (kinds.ts), and the one picked becomes the spec
// through that kind's toSpec, exactly as an environment of the app does.
import type { Command } from 'commander';
import type { EnvironmentKind } from '../../../shared/ipc';
import type { TransportSpec } from '../api';
import { ClientError } from '../client-error';
import type {
  ClientEnvironmentKind,
  CliOption,
  CliValues,
  KindCliFlags,
} from '../transports/environment-kind';
import { clientKind, clientKinds } from '../transports/kinds';

/** Parsed "where" options: whatever flags the kinds declared. */
export type WhereOptions = CliValues;

type CliKind = ClientEnvironmentKind<EnvironmentKind> & { cli: KindCliFlags<EnvironmentKind> };

function cliKinds(): CliKind[] {
  return clientKinds().filter((kind): kind is CliKind => kind.cli !== undefined);
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function addOption(command: Command, option: CliOption): Command {
  return option.repeatable
    ? command.option(option.flags, option.description, collect, [])
    : command.option(option.flags, option.description);
}

/** The long flag of `-p, --port <port>`: `--port`. */
function longFlag(flags: string): string {
  return /--[a-z0-9-]+/.exec(flags)?.[0] ?? flags;
}

/** commander's key for a flag: `--server <url>` → `server`, `--token-file` → `tokenFile`. */
function optionKey(flags: string): string {
  return longFlag(flags)
    .slice(2)
    .replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Adds every kind's selector and flags (`--server`, `--ssh`, `-o`, …). */
export function withWhereOptions(command: Command): Command {
  for (const kind of cliKinds()) {
    addOption(command, kind.cli.select);
    for (const option of kind.cli.options) addOption(command, option);
  }
  return command;
}

/** Adds one kind's flags without its selector, for a subcommand that names the target itself (`tether ssh HOST`). */
export function withKindOptions(command: Command, kind: EnvironmentKind): Command {
  for (const option of clientKind(kind).cli?.options ?? []) addOption(command, option);
  return command;
}

/** The spec of `kind` reached at `selected` (its selector's value), from the options. */
export function transportOfKind(
  kind: EnvironmentKind,
  selected: string,
  options: WhereOptions,
): TransportSpec {
  const entry = clientKind(kind);
  if (!entry.cli)
    throw new ClientError('invalidArgument', `The command line cannot reach a ${kind} environment.`);
  const { settings, context } = entry.cli.fromOptions(selected, options);
  return entry.toSpec(settings, context);
}

/** Where to connect, from the options `tether run` and `tether cp` share. */
export function transportFrom(options: WhereOptions): TransportSpec {
  const kinds = cliKinds();
  const given = kinds.filter((kind) => Boolean(options[optionKey(kind.cli.select.flags)]));
  // A kind that rides another (`--container` on `--ssh HOST`) takes that one's selector as its own.
  const ridden = new Set(given.flatMap((kind) => kind.cli.rides ?? []));
  const picked = given.filter((kind) => !ridden.has(kind.kind));
  if (picked.length > 1) {
    const flags = kinds.map((kind) => longFlag(kind.cli.select.flags));
    throw new ClientError('invalidArgument', `Give one of ${listed(flags)}.`);
  }
  const [kind] = picked;
  for (const other of kinds) {
    const stray = other === kind ? null : (other.cli.strayOption?.(options) ?? null);
    if (stray !== null) throw new ClientError('invalidArgument', stray);
  }
  if (!kind) {
    throw new ClientError('invalidArgument', `Say where to run: ${listed(kinds.map((k) => k.cli.example))}.`);
  }
  const selected = options[optionKey(kind.cli.select.flags)] as string;
  return transportOfKind(kind.kind, selected, options);
}

/** "a, b or c". */
function listed(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}
