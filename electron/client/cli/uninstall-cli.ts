// `tether uninstall --ssh HOST` (or `--container [ENGINE:]NAME`, `--exec "PREFIX"`): removes Tether
// from a target it bootstraps (its daemons, server versions, Node runtimes and run files), over a
// connection of its own, and says what it removed.
import type { Command } from 'commander';
import { errorMessage } from '../../../shared/error-message';
import { ClientError } from '../client-error';
import { transportKind } from '../transports/kinds';
import { terminalSshHooks } from '../transports/ssh/terminal-hooks';
import { transportFrom, withWhereOptions, type WhereOptions } from './where-options';

export function registerUninstallCommand(program: Command): void {
  withWhereOptions(
    program
      .command('uninstall')
      .description(
        "Remove Tether from an SSH host, a container or an exec prefix's target: stop Tether's daemons there, remove what it installed.",
      ),
  )
    .option('--verbose', 'report connect stages and the log on stderr')
    .action(async (options: WhereOptions & { verbose?: boolean }) => {
      try {
        const spec = transportFrom(options);
        const uninstall = transportKind(spec.kind).uninstall;
        if (!uninstall) {
          throw new ClientError(
            'invalidArgument',
            'Tether installs nothing there: give --ssh HOST, --container NAME or --exec "PREFIX".',
          );
        }
        const report = await uninstall(spec, terminalSshHooks(Boolean(options.verbose)));
        for (const pid of report.stoppedPids) process.stdout.write(`stopped daemon ${pid}\n`);
        for (const removed of report.removed) process.stdout.write(`removed ${removed}\n`);
        if (report.stoppedPids.length === 0 && report.removed.length === 0) {
          process.stdout.write(`Tether was not installed on ${report.host}.\n`);
        }
        process.exitCode = 0;
      } catch (error) {
        process.stderr.write(`tether uninstall: ${errorMessage(error)}\n`);
        process.exitCode = 1;
      }
    });
}
