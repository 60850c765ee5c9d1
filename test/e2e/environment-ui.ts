// Environment steps shared by the e2e tests: add a WebSocket environment through the dialog (with a
// connection test first), wait for the shell it opens by itself, and hand back its connection
// indicator.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { saveScreenshot } from './screens';
import { pane, paneText } from './terminal-text';

/** Where the environment points: the URL to type and, for a server that wants one, its token. */
export interface EnvironmentTarget {
  url: string;
  token?: string;
}

/**
 * Adds the server at `target` as "Lab box" through the dialog and waits for its first shell's
 * prompt; returns its connection indicator.
 */
export async function addEnvironment(
  page: Page,
  target: EnvironmentTarget,
  timeoutMs: number,
): Promise<Locator> {
  const poll = { timeout: timeoutMs, interval: 100 };
  await page.getByRole('button', { name: 'Add environment' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add environment' });
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect.poll(() => dialog.getByText('Give the environment a name.').count(), poll).toBe(1);
  await dialog.getByLabel('Name').fill('Lab box');
  await dialog.getByLabel('Connect via').selectOption('ws');
  await dialog.getByLabel('URL').fill(target.url);
  if (target.token !== undefined) await dialog.getByLabel('Token').fill(target.token);
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect.poll(() => dialog.getByRole('status').textContent(), poll).toContain('Connection works');
  await saveScreenshot(page, 'add-environment');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();

  const entry = page.getByRole('button', { name: 'Environment Lab box' });
  const indicator = entry.getByRole('img', { name: /^Connection:/ });
  await expect
    .poll(() => indicator.getAttribute('aria-label'), poll)
    .toMatch(/^Connection: connected, [\d.]+ ms$/);
  // A new environment opens its first shell by itself once connected, as Local does at first launch.
  await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);
  await expect.poll(async () => (await paneText(page)).trim().length, poll).toBeGreaterThan(0);
  return indicator;
}

/**
 * Opens the app, waits for the Local shell's pane, adds the server at `target` as "Lab box"; resolves
 * once the shell it opened there has printed its prompt. Returns the connection indicator.
 */
export async function openRemoteShell(
  page: Page,
  appUrl: string,
  target: EnvironmentTarget,
  timeoutMs: number,
): Promise<Locator> {
  const poll = { timeout: timeoutMs, interval: 100 };
  await page.goto(appUrl);
  await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);
  return addEnvironment(page, target, timeoutMs);
}

/**
 * Adds the host `alias` of ~/.ssh/config through the dialog's picker, trusts its unknown host key,
 * and waits until it is connected and its first shell's pane is there.
 */
export async function addSshEnvironment(page: Page, alias: string, timeoutMs: number): Promise<void> {
  const poll = { timeout: timeoutMs, interval: 100 };
  await page.getByRole('button', { name: 'Add environment' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add environment' });
  await dialog.getByLabel('Connect via').selectOption('ssh');
  const picker = dialog.getByLabel('From ~/.ssh/config');
  await expect.poll(() => picker.locator('option', { hasText: alias }).count(), poll).toBeGreaterThan(0);
  await picker.selectOption(alias);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await page
    .getByRole('dialog', { name: `${alias}: unknown host key` })
    .getByRole('button', { name: 'Trust and connect' })
    .click();
  const indicator = page
    .getByRole('button', { name: `Environment ${alias}` })
    .getByRole('img', { name: /^Connection:/ });
  await expect.poll(() => indicator.getAttribute('aria-label'), poll).toMatch(/^Connection: connected/);
  // Its first shell opens by itself; callers go on once it has, so its tab does not land later.
  await expect.poll(() => page.locator('section.pane .xterm-rows').count(), poll).toBe(1);
}
