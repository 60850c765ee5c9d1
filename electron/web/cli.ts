// `tether web`: runs the AppService and serves the app to a browser on loopback. The first line on
// stdout is the login URL (with the per-launch token; stdout is the user's own); everything else
// goes to stderr. The browser is opened on a private redirect file, so no credential is in argv.
// The port and path are remembered in the data dir, so the page's address survives a restart.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { AppService } from '../app/app-service';
import { remoteClientFactory } from '../app/environments/client-factory';
import { FileSecretStore } from '../app/persistence/file-secret-store';
import { findPackageRoot, localServerCommand } from '../app/environments/local-server';
import { errorMessage } from '../../shared/error-message';
import { escapeForTerminal } from '../../shared/terminal-text';
import { webDataDir } from './data-dir';
import { writeLoginFile } from './login-file';
import { openFileInBrowser, openInBrowser } from './open-browser';
import { listenOnRememberedPort, loadWebAddress, saveWebAddress } from './web-address';
import { WebCredentials } from './web-credentials';
import { WebDownloads } from './web-downloads';
import { startWebHost, WebHostListenError, type WebHost } from './web-host';
import { listenForBenchGc } from './bench-gc';

/** Exit code when the web host cannot listen (the port is taken or not permitted). */
const LISTEN_FAILURE_EXIT_CODE = 2;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

interface WebOptions {
  port?: string;
  host: string;
  open: boolean;
  dataDir?: string;
}

export function registerWebCommand(program: Command): void {
  program
    .command('web')
    .description('Serve the Tether app to your browser (loopback only, token-protected).')
    .option('--port <n>', "port to listen on (default: the last start's if free; 0 picks a free one)")
    .option('--host <ip>', 'loopback address to bind', '127.0.0.1')
    .option('--no-open', 'do not open the browser')
    .option(
      '--data-dir <dir>',
      'where config and tokens are kept (default: $TETHER_WEB_USER_DATA or ~/.config/tether-web)',
    )
    .action(async (options: WebOptions) => {
      const port = options.port === undefined ? undefined : Number(options.port);
      if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65_535)) {
        program.error(`--port must be a port number, got "${options.port}".`);
      }
      if (!LOOPBACK_HOSTS.has(options.host)) {
        program.error(
          `--host must be a loopback address (127.0.0.1, ::1); "${options.host}" would expose your machine.`,
        );
      }
      await runWeb({ ...options, port, host: options.host === 'localhost' ? '127.0.0.1' : options.host });
    });
}

async function runWeb(options: {
  /** Undefined: the remembered port, else a free one. */
  port: number | undefined;
  host: string;
  open: boolean;
  dataDir?: string;
}): Promise<void> {
  const packageRoot = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));
  const dataDir = webDataDir(options.dataDir);
  const address = await loadWebAddress(dataDir);
  const credentials = new WebCredentials(address);
  const downloads = new WebDownloads(credentials.scope);
  const service = await AppService.create({
    dataDir,
    secrets: new FileSecretStore(path.join(dataDir, 'tokens.json')),
    createClient: remoteClientFactory(),
    localServer: localServerCommand({ packageRoot, execPath: process.execPath, electron: false }),
    host: {
      downloads,
      openExternal: (url) =>
        openInBrowser(url).catch(() => console.error(`tether: open ${url} in your browser.`)),
    },
  });
  let host: WebHost;
  let fallbackFrom: number | undefined;
  try {
    ({ host, fallbackFrom } = await listenOnRememberedPort(
      (port) =>
        startWebHost({
          service,
          downloads,
          staticDir: path.join(packageRoot, 'dist', 'renderer'),
          host: options.host,
          port,
          credentials,
        }),
      options.port,
      address.port,
    ));
  } catch (error) {
    await service.shutdown();
    if (!(error instanceof WebHostListenError)) throw error;
    const hint = error.reason === 'inUse' ? ' Choose another --port, or --port 0 for a free one.' : '';
    process.stderr.write(`tether web: ${error.message}${hint}\n`, () =>
      process.exit(LISTEN_FAILURE_EXIT_CODE),
    );
    return;
  }
  // Before the URL is out: whoever reads it may restart the host at once. Not fatal: the app works,
  // only the next start may get another address.
  await saveWebAddress(dataDir, { ...address, port: host.port }).catch((error: unknown) =>
    console.error(`tether: could not remember the address for the next start (${errorMessage(error)}).`),
  );
  process.stdout.write(`${host.url}\n`);
  if (fallbackFrom !== undefined) {
    console.error(
      `tether: port ${fallbackFrom} (the last start's) is in use by another program, so the app is on port ${host.port} now: open pages and bookmarks of the old address will not reach it.`,
    );
  }
  console.error(`tether: web mode, config in ${dataDir}. Press Ctrl-C to stop.`);
  if (options.open) openBrowser(host, dataDir);
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    // No one to ask here (a signal stops the host): say what ends with it.
    const warning = service.quitWarning();
    // Process titles and file names are the servers' words: escaped for the terminal.
    if (warning) {
      const said = escapeForTerminal(`${warning.message}\n${warning.detail}`, { lineBreaks: true });
      console.error(`tether: stopping. ${said}`);
    }
    await host.close();
    await service.shutdown();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  listenForBenchGc();
}

/** Opens the browser on a private redirect file holding a one-time code, deleted once it is spent. */
function openBrowser(host: WebHost, dataDir: string): void {
  let file: ReturnType<typeof writeLoginFile> | null = null;
  const url = host.oneTimeUrl(() => file?.remove());
  try {
    file = writeLoginFile(dataDir, url);
  } catch (error) {
    console.error(`tether: could not open a browser (${errorMessage(error)}); open the URL above yourself.`);
    return;
  }
  const opened = file;
  openFileInBrowser(opened.path).catch((error: unknown) => {
    opened.remove();
    console.error(`tether: could not open a browser (${errorMessage(error)}); open the URL above yourself.`);
  });
}
