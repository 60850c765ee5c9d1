// Environment steps shared by the e2e tests: add a WebSocket environment through the dialog (with a
// connection test first) and hand back its connection indicator.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { saveScreenshot } from './screens';

/** Adds the server at `url` as "Lab box" through the dialog; returns its connection indicator. */
export async function addEnvironment(page: Page, url: string, timeoutMs: number): Promise<Locator> {
  const poll = { timeout: timeoutMs, interval: 100 };
  await page.getByRole('button', { name: 'Add environment' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add environment' });
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect.poll(() => dialog.getByText('Give the environment a name.').count(), poll).toBe(1);
  await dialog.getByLabel('Name').fill('Lab box');
  await dialog.getByLabel('URL').fill(url);
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect.poll(() => dialog.getByRole('status').textContent(), poll).toContain('Connection works');
  await saveScreenshot(page, 'add-environment');
  await dialog.getByRole('button', { name: 'Add' }).click();

  const entry = page.getByRole('button', { name: 'Environment Lab box' });
  const indicator = entry.getByRole('img', { name: /^Connection:/ });
  await expect
    .poll(() => indicator.getAttribute('aria-label'), poll)
    .toMatch(/^Connection: connected, [\d.]+ ms$/);
  return indicator;
}
