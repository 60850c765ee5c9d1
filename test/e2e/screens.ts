// Saves screenshots of the main views as artifacts in test-results/screenshots (git-ignored).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
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
