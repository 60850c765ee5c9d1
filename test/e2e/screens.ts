// Saves screenshots of the main views as artifacts in test-results/screenshots (git-ignored).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { onTestFailed, type TestContext } from 'vitest';
import { paneText } from './terminal-text';
import type { WebApp } from './web-app';
import { REPO_ROOT } from '../support/exec-servers';

const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results', 'screenshots');

export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

/** On a failed test: a screenshot, what each pane shows, and the web host's stderr, for diagnosis. */
export async function reportFailure(page: Page, name: string, app: WebApp): Promise<void> {
  await saveScreenshot(page, `failed-${name}`).catch(() => undefined);
  const panes = await page
    .locator('section.pane')
    .count()
    .catch(() => 0);
  for (let i = 0; i < panes; i += 1) {
    console.error(`pane ${i}:\n${await paneText(page, i).catch((e: Error) => e.message)}`);
  }
  console.error(`tether web stderr:\n${app.stderr()}`);
}

/** The report of the running test, until it ran once. */
let pendingReport: (() => Promise<void>) | null = null;

/**
 * Reports the running test's failure (reportFailure) while its page is still open. vitest runs
 * onTestFailed only after the afterEach hooks, which close the browser in most of these files: so
 * those hooks call reportIfFailed first, and onTestFailed covers pages closed in afterAll. `app` may
 * be a getter, for a test that starts its host again.
 */
export function reportOnFailure(page: Page, name: string, app: WebApp | (() => WebApp)): void {
  const report = async (): Promise<void> => {
    if (pendingReport !== report) return;
    pendingReport = null;
    await reportFailure(page, name, typeof app === 'function' ? app() : app);
  };
  pendingReport = report;
  onTestFailed(report);
}

/** From an afterEach hook, before it closes the page: the report, if the test failed. */
export async function reportIfFailed(ctx: TestContext): Promise<void> {
  if (ctx.task.result?.state === 'fail') await pendingReport?.();
}
