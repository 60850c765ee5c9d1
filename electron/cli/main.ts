// The `tether` command line: one program with subcommands, each owned by its layer.
//   tether exec-server   the exec-server (electron/server)
//   tether run           run one process in an environment through the reconnecting client
//   tether ssh           a shell on an SSH host that rides through drops (same client, ssh transport)
//   tether forward       forward local ports to ports on an environment's host (as ssh -L)
//   tether cp            copy files and folders to or from a server
//   tether ps, attach    list and follow the processes other clients of the same credential started
//   tether uninstall     remove Tether from an SSH host
//   tether web           serve the app to a browser (electron/web)
import { Command } from 'commander';
import { registerExecServerCommand } from '../server/cli';
import { registerCpCommand } from '../client/cli/cp-cli';
import { registerPsCommands } from '../client/cli/ps-cli';
import { registerForwardCommand } from '../client/cli/forward-cli';
import { registerRunCommand, registerSshCommand } from '../client/cli/run-cli';
import { registerUninstallCommand } from '../client/cli/uninstall-cli';
import { registerWebCommand } from '../web/cli';
import { TETHER_VERSION } from '../../shared/version';

const program = new Command('tether')
  .description('Stay attached to remote machines and containers through a bad network.')
  .version(TETHER_VERSION)
  // Lets `tether run ... ls -la` pass the program's own options through untouched.
  .enablePositionalOptions();

registerExecServerCommand(program);
registerRunCommand(program);
registerSshCommand(program);
registerCpCommand(program);
registerPsCommands(program);
registerForwardCommand(program);
registerUninstallCommand(program);
registerWebCommand(program);

await program.parseAsync(process.argv);
