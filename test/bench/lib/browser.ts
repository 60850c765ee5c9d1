// Debian's Chromium driven by playwright-core for the pixel and renderer-heap measurements; headless,
// no sandbox (the bench runs as root in CI), and a clear reason when Chromium is missing.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

class BrowserUnavailableError extends Error {
  readonly code = 'BROWSER_UNAVAILABLE';
}

function chromiumPath(): string {
  const found = CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new BrowserUnavailableError(
      `Chromium not found (${CHROMIUM_CANDIDATES.join(', ')}); install Debian's chromium (apt-get install -y chromium)`,
    );
  }
  return found;
}

/** `extraArgs`: more Chromium flags (e.g. `--disable-webgl`, for xterm's DOM renderer). */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', ...extraArgs],
  });
}
