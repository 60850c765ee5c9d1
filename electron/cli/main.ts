// The `tether` command line: one program with subcommands, each owned by its layer.
//   tether exec-server   the exec-server (electron/server)
//   tether run           run one process in an environment through the reconnecting client
//   tether ssh           a shell on an SSH host that rides through drops (same client, ssh transport)
//   tether forward       forward local ports to ports on an environment's host (as ssh -L)
//   tether cp            copy files and folders to or from a server
//   tether ps, attach    list and follow the processes other clients of the same credential started
//   tether uninstall     remove Tether from an SSH host
//   tether web           serve the app to a browser (electron/web)
// Each command's module is imported only when that command runs (every one for help or an unknown
// command): `tether run` starts on every invocation, and evaluating the exec-server and the web
// app (node-pty among them) cost it 30–40 ms of CPU for nothing.
import { Command } from 'commander';
import { TETHER_VERSION } from '../../shared/version';

type Register = (program: Command) => void;

const COMMANDS: Record<string, () => Promise<Register[]>> = {
  'exec-server': async () => [(await import('../server/cli')).registerExecServerCommand],
  run: async () => [(await import('../client/cli/run-cli')).registerRunCommand],
  ssh: async () => [(await import('../client/cli/run-cli')).registerSshCommand],
  cp: async () => [(await import('../client/cli/cp-cli')).registerCpCommand],
  ps: async () => [(await import('../client/cli/ps-cli')).registerPsCommands],
  attach: async () => [(await import('../client/cli/ps-cli')).registerPsCommands],
  forward: async () => [(await import('../client/cli/forward-cli')).registerForwardCommand],
  uninstall: async () => [(await import('../client/cli/uninstall-cli')).registerUninstallCommand],
  web: async () => [(await import('../web/cli')).registerWebCommand],
};

/** Every command, in the order help lists them. */
async function allCommands(): Promise<Register[]> {
  const run = await import('../client/cli/run-cli');
  return [
    (await import('../server/cli')).registerExecServerCommand,
    run.registerRunCommand,
    run.registerSshCommand,
    (await import('../client/cli/cp-cli')).registerCpCommand,
    (await import('../client/cli/ps-cli')).registerPsCommands,
    (await import('../client/cli/forward-cli')).registerForwardCommand,
    (await import('../client/cli/uninstall-cli')).registerUninstallCommand,
    (await import('../web/cli')).registerWebCommand,
  ];
}

async function main(): Promise<void> {
  const program = new Command('tether')
    .description('Stay attached to remote machines and containers through a bad network.')
    .version(TETHER_VERSION)
    // Lets `tether run ... ls -la` pass the program's own options through untouched.
    .enablePositionalOptions();

  const named = process.argv[2];
  const only = named !== undefined && Object.hasOwn(COMMANDS, named) ? COMMANDS[named] : undefined;
  for (const register of await (only ?? allCommands)()) register(program);
  await program.parseAsync(process.argv);
}

// A failure rejects unhandled, ending the CLI with its stack and status 1 as a top-level await did.
void main();
