// A Command environment: a local command line whose stdio speaks the protocol (`--stdio`).
import { shQuote } from '../../../../shared/shell-quote';
import type { ClientEnvironmentKind } from '../environment-kind';
import { splitCommandLine } from './command-line';

export const commandKind: ClientEnvironmentKind<'command'> = {
  kind: 'command',
  toSpec: (settings) => ({ kind: 'stdio', command: splitCommandLine(settings.commandLine) }),
  cli: {
    select: {
      flags: '--stdio <command>',
      description: 'shell command whose stdin/stdout speak the protocol (no reconnect)',
    },
    example: '--stdio "COMMAND"',
    options: [],
    // `--stdio` takes a shell command (pipes and all), so it runs under sh -c.
    fromOptions: (command) => ({
      settings: { kind: 'command', commandLine: `/bin/sh -c ${shQuote(command)}` },
      context: {},
    }),
  },
};
