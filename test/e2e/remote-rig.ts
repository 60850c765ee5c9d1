// The parts of an e2e test of a remote environment: an exec-server behind a fault proxy, the web
// app and Chromium, started before each test of the calling describe block and stopped after it.
import { afterEach, beforeEach } from 'vitest';
import { reportIfFailed } from './screens';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import type { ServerImpl, StartedServer } from '../support/exec-servers';
import type { FaultProxy } from '../support/fault-proxy';
import { startProxiedServer, type ProxiedServer } from '../support/proxied-server';
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
  let remote: ProxiedServer | undefined;
  let app: WebApp | undefined;
  let browser: LaunchedBrowser | undefined;
  const serve = async (which: ServerImpl): Promise<void> => {
    remote = await startProxiedServer(which, options);
  };

  beforeEach(async () => {
    await serve(impl);
    app = await startWebApp();
    browser = await launchBrowser({ disableWebgl: true });
  });
  afterEach(async (ctx) => {
    await reportIfFailed(ctx);
    await browser?.close();
    await app?.stop();
    await remote?.stop();
  });

  return {
    get server() {
      return remote!.server;
    },
    get proxy() {
      return remote!.proxy;
    },
    get app() {
      return app!;
    },
    get browser() {
      return browser!;
    },
    async switchServer(which) {
      await remote?.stop();
      await serve(which);
    },
  };
}
