// Electron smoke test: launches the built app with Playwright, sees the window, and checks through
// the preload bridge that the Local environment connects. Skipped, with the reason, on machines
// where Electron cannot run (binary never downloaded, or no display).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/exec-servers';

/** Finds the Electron binary without triggering the package's download-on-require. */
function electronUnavailableReason(): string | null {
  const pathFile = path.join(REPO_ROOT, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile))
    return 'the Electron binary was never downloaded (node_modules/electron/path.txt is missing)';
  const binary = path.join(
    REPO_ROOT,
    'node_modules',
    'electron',
    'dist',
    readFileSync(pathFile, 'utf8').trim(),
  );
  if (!existsSync(binary)) return `the Electron binary is missing (${binary})`;
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)';
  }
  return null;
}

function electronBinary(): string {
  const pathFile = path.join(REPO_ROOT, 'node_modules', 'electron', 'path.txt');
  return path.join(REPO_ROOT, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
}

const unavailable = electronUnavailableReason();
const electronAvailable = unavailable === null;
if (!electronAvailable) console.warn(`Electron smoke test skipped: ${unavailable}.`);

describe('Electron app', () => {
  it.skipIf(!electronAvailable)(
    `opens its window with the Local environment connected${electronAvailable ? '' : ` — skipped: ${unavailable}`}`,
    async () => {
      const userData = mkdtempSync(path.join(os.tmpdir(), 'tether-electron-'));
      const app = await electron.launch({
        executablePath: electronBinary(),
        args: [path.join(REPO_ROOT, 'dist', 'electron', 'main.js')],
        env: { ...process.env, TETHER_USER_DATA: userData } as Record<string, string>,
        timeout: 60_000,
      });
      try {
        const window = await app.firstWindow();
        await window.waitForLoadState('domcontentloaded');
        expect(await window.title()).toContain('Tether');
        const nodeVisible = await window.evaluate(() => typeof (globalThis as { process?: unknown }).process);
        expect(nodeVisible).toBe('undefined');
        await expect
          .poll(
            () =>
              window.evaluate(async () => {
                // The preload answers with the {ok, output} envelope (see PreloadBridge), not the output.
                const bridge = (
                  globalThis as unknown as {
                    tether: {
                      invoke(
                        n: string,
                        i: unknown,
                      ): Promise<{ ok: boolean; output?: Array<{ id: string; link: { kind: string } }> }>;
                    };
                  }
                ).tether;
                const envs = await bridge.invoke('environments.list', {});
                return envs.output?.find((e) => e.id === 'local')?.link.kind;
              }),
            { timeout: 60_000, interval: 250 },
          )
          .toBe('connected');
      } finally {
        await app.close();
        rmSync(userData, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
      }
    },
  );
});
