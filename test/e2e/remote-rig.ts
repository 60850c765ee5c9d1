// The parts of an e2e test of a remote environment: an exec-server behind a fault proxy, the web
// app and Chromium, started before each test of the calling describe block and stopped after it.
import { afterEach, beforeEach } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { startServer, type ServerImpl, type StartedServer } from '../support/exec-servers';
import { FaultProxy } from '../support/fault-proxy';
import { startWebApp, type WebApp } from './web-app';

export interface RemoteRig {
  readonly server: StartedServer;
  readonly proxy: FaultProxy;
  readonly app: WebApp;
  readonly browser: LaunchedBrowser;
  /** Replaces the server and its proxy with a fresh one of `impl` (before the app uses them). */
  switchServer(impl: ServerImpl): Promise<void>;
}

export function remoteRig(impl: ServerImpl, options: { serverArgs?: string[] } = {}): RemoteRig {
  let server: StartedServer | undefined;
  let proxy: FaultProxy | undefined;
  let app: WebApp | undefined;
  let browser: LaunchedBrowser | undefined;
  const serve = async (which: ServerImpl): Promise<void> => {
    server = await startServer(which, 'ws', { extraArgs: options.serverArgs ?? [] });
    proxy = await FaultProxy.forUrl(server.url as string);
  };

  beforeEach(async () => {
    await serve(impl);
    app = await startWebApp();
    browser = await launchBrowser({ disableWebgl: true });
  });
  afterEach(async () => {
    await browser?.close();
    await app?.stop();
    await proxy?.close();
    await server?.stop();
  });

  return {
    get server() {
      return server!;
    },
    get proxy() {
      return proxy!;
    },
    get app() {
      return app!;
    },
    get browser() {
      return browser!;
    },
    async switchServer(which) {
      await proxy?.close();
      await server?.stop();
      await serve(which);
    },
  };
}
