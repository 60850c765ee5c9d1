// The entry point of the server bundle installed on SSH hosts (dist/remote/server.mjs):
//   version       prints {"version","hash"} of this bundle
//   daemon        the exec-server on a unix socket, outliving SSH (daemon.ts)
//   bridge        stdio <-> the daemon's socket, starting the daemon if needed (bridge.ts)
//   gc            removes other installed versions whose daemon is gone (bundle-gc.ts)
//   exec-server   the ordinary exec-server (stdio, ws, unix), as `tether exec-server`
// The server itself (node-pty, zod, ws) is imported only by the subcommands that serve: the bridge
// runs on every connect, so it starts without them.
import { Command } from 'commander';
import { TETHER_VERSION } from '../../../shared/version';
import { NoDaemonError, runBridge } from './bridge';
import { readBundleIdentity } from './bundle-identity';
import { collectOldBundles } from './bundle-gc';
import type { RawDaemonOptions } from './daemon';
import { StartupError } from '../server-options';
import { errorMessage } from '../../../shared/error-message';

/** Runs a subcommand; known failures print one line and exit with their code (default 1). */
async function guarded(name: string, run: () => Promise<number | void>): Promise<void> {
  try {
    const code = await run();
    if (code !== undefined) process.exit(code);
  } catch (error) {
    const message =
      error instanceof StartupError || error instanceof NoDaemonError
        ? error.message
        : `failed: ${errorMessage(error)}`;
    process.stderr.write(`tether ${name}: ${message}\n`);
    process.exit(error instanceof NoDaemonError ? error.exitCode : 1);
  }
}

const program = new Command('server.mjs')
  .description('The Tether server bundle for SSH hosts.')
  .version(TETHER_VERSION)
  .enablePositionalOptions();

program
  .command('version')
  .description("print this bundle's version and hash as one JSON line")
  .action(() =>
    guarded('version', async () => {
      process.stdout.write(`${JSON.stringify(readBundleIdentity())}\n`);
      return 0;
    }),
  );

program
  .command('daemon')
  .description('serve on a unix socket, detached from any terminal, until idle')
  .requiredOption('--listen <url>', '`unix:PATH` (its directory must be 0700 and ours)')
  .option('--session-ttl-ms <ms>', 'how long a dropped session is held (default 3 h)')
  .option('--idle-exit-ms <ms>', 'exit after this long with no connection and no session (default 10 min)')
  .option('--exited-process-ttl-ms <ms>', 'how long a closed process stays readable (default 80 s)')
  .option('--log-level <level>', 'error, warn, info or debug', 'info')
  .action((raw: RawDaemonOptions) =>
    guarded('daemon', async () => {
      const { runDaemon } = await import('./daemon');
      await runDaemon(raw);
    }),
  );

program
  .command('bridge')
  .description("relay stdin/stdout to this user's daemon, starting it if none is running")
  .option('--no-start', `never start a daemon: exit 90 if none is running`)
  .option('--session-ttl-ms <ms>', 'for a daemon this bridge starts')
  .option('--idle-exit-ms <ms>', 'for a daemon this bridge starts')
  .option('--forward-agent', "offer this SSH session's forwarded agent to the daemon's processes")
  .option('--preamble <line>', 'print this line on stdout first; the protocol follows it')
  .option(
    '--locate',
    "reach the daemon (starting it unless --no-start), print its socket's path as JSON, exit",
  )
  .action(
    (raw: {
      start: boolean;
      locate?: boolean;
      sessionTtlMs?: string;
      idleExitMs?: string;
      forwardAgent?: boolean;
      preamble?: string;
    }) => guarded('bridge', () => runBridge(raw)),
  );

program
  .command('gc')
  .description('remove installed bundles other than --keep whose daemon is not running')
  .requiredOption('--keep <id>', 'the `<version>-<hash>` to keep')
  .action((raw: { keep: string }) =>
    guarded('gc', async () => {
      process.stdout.write(`${JSON.stringify(await collectOldBundles(raw.keep))}\n`);
      return 0;
    }),
  );

program
  .command('exec-server')
  .description('the ordinary exec-server (see `server.mjs exec-server --help`)')
  .helpOption(false)
  .allowUnknownOption()
  .allowExcessArguments()
  .action(async () => {
    // Its own program with the full option set, parsed from the same argv.
    const { registerExecServerCommand } = await import('../cli');
    const server = new Command('server.mjs');
    registerExecServerCommand(server);
    await server.parseAsync(process.argv);
  });

await program.parseAsync(process.argv);
