// `tether uninstall --ssh HOST`: removes Tether from an SSH host (its daemons, server versions,
// Node runtimes and run files), over a connection of its own, and says what it removed.
import type { Command } from 'commander';
import { errorMessage } from '../../../shared/error-message';
import { terminalSshHooks } from '../transports/ssh/terminal-hooks';
import { uninstallFromSshHost } from '../transports/ssh/ssh-transport';
import { transportOfKind, withKindOptions, type WhereOptions } from './where-options';

export function registerUninstallCommand(program: Command): void {
  withKindOptions(
    program
      .command('uninstall')
      .description("Remove Tether from an SSH host: stop Tether's daemons there, remove what it installed.")
      .requiredOption('--ssh <destination>', 'a Host of your ssh config, or [user@]host'),
    'ssh',
  )
    .option('--verbose', 'report ssh stages and its log on stderr')
    .action(async (options: WhereOptions & { ssh: string; verbose?: boolean }) => {
      try {
        const spec = transportOfKind('ssh', options.ssh, options);
        if (spec.kind !== 'ssh') throw new Error('--ssh names an SSH host.');
        const report = await uninstallFromSshHost(spec, terminalSshHooks(Boolean(options.verbose)));
        for (const pid of report.stoppedPids) process.stdout.write(`stopped daemon ${pid}\n`);
        for (const removed of report.removed) process.stdout.write(`removed ${removed}\n`);
        if (report.stoppedPids.length === 0 && report.removed.length === 0) {
          process.stdout.write(`Tether was not installed on ${options.ssh}.\n`);
        }
        process.exitCode = 0;
      } catch (error) {
        process.stderr.write(`tether uninstall: ${errorMessage(error)}\n`);
        process.exitCode = 1;
      }
    });
}
