// Saves screenshots of the main views as artifacts in test-results/screenshots (git-ignored).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../support/exec-servers';

export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results', 'screenshots');

export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}
