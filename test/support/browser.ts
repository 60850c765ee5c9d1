// Launches Debian's Chromium through playwright-core for e2e tests and benchmarks: never downloads a
// browser, uses a fresh throwaway profile, and closes (and removes the profile) on dispose.
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CHROMIUM_PATH = process.env.TETHER_CHROMIUM ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchedBrowser {
  context: BrowserContext;
  page: Page;
  /** Where downloads land (accepted automatically). */
  downloadsDir: string;
  close: () => Promise<void>;
}

class ChromiumMissingError extends Error {
  readonly code = 'chromiumMissing';
  constructor() {
    super(
      `No Chromium at ${CHROMIUM_PATH}; install it with "apt-get install -y chromium" or set TETHER_CHROMIUM.`,
    );
    this.name = 'ChromiumMissingError';
  }
}

export interface LaunchOptions {
  viewport?: { width: number; height: number };
  /**
   * Turns WebGL off so xterm falls back to its DOM renderer, whose rows tests can read as text
   * (and which exercises the app's fallback path).
   */
  disableWebgl?: boolean;
}

export async function launchBrowser(options: LaunchOptions = {}): Promise<LaunchedBrowser> {
  if (!existsSync(CHROMIUM_PATH)) throw new ChromiumMissingError();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'tether-chromium-'));
  const downloadsDir = path.join(profile, 'downloads');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: options.disableWebgl ? [...CHROMIUM_ARGS, '--disable-webgl', '--disable-3d-apis'] : CHROMIUM_ARGS,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    acceptDownloads: true,
    downloadsPath: downloadsDir,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    downloadsDir,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}
