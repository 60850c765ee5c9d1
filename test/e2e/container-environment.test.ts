// A Container environment through the UI in Chromium (web mode), against a real podman container
// without Node (test/support/containers.ts): picked from the engine's live list in the dialog, the
// server installed inside, a shell run in it, and its files browsed like any environment's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import {
  containerName,
  containersAvailable,
  podman,
  removeContainers,
  runContainer,
  testImage,
} from '../support/containers';
import { saveScreenshot, reportOnFailure } from './screens';
import { countInPane, pane, typeLine } from './terminal-text';
import { startWebApp, type WebApp } from './web-app';

const UI_TIMEOUT_MS = 90_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };

const name = containerName('e2e');
let app: WebApp;
let browser: LaunchedBrowser;

beforeAll(async () => {
  if (!containersAvailable()) return;
  await runContainer(await testImage('glibc'), name);
  await podman('exec', name, '/bin/sh', '-c', 'mkdir -p /work && echo hi > /work/from-the-container.txt');
  app = await startWebApp();
  browser = await launchBrowser({ disableWebgl: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await removeContainers([name]);
});

describe.runIf(containersAvailable())('web app: container environment', () => {
  it('adds a container from the live list, installs inside, runs a shell and browses its files', async () => {
    const { page } = browser;
    reportOnFailure(page, 'container-environment', app);
    await page.goto(app.url);
    await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);

    await page.getByRole('button', { name: 'Add environment' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add environment' });
    await dialog.getByLabel('Connect via').selectOption('container');
    const option = dialog
      .getByRole('listbox', { name: 'Containers' })
      .getByRole('option', { name: new RegExp(`^${name} `) });
    await expect.poll(() => option.count(), poll).toBe(1);
    expect(await option.textContent()).toMatch(/tether-test-glibc.*Up/);
    await option.click();
    expect(await dialog.getByLabel('Container', { exact: true }).inputValue()).toBe(name);
    expect(await dialog.getByLabel('Name').inputValue()).toBe(name);
    await saveScreenshot(page, 'container-add-environment');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();

    const indicator = page
      .getByRole('button', { name: `Environment ${name}` })
      .getByRole('img', { name: /^Connection:/ });
    await expect.poll(() => indicator.getAttribute('aria-label'), poll).toMatch(/^Connection: connected/);

    // Once connected, the new environment opens a shell by itself, inside the container.
    await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);
    const hostname = await podman('inspect', '--format', '{{.Config.Hostname}}', name);
    await typeLine(page, 'echo "in=$(hostname)"');
    await expect.poll(() => countInPane(page, new RegExp(`^in=${hostname}$`, 'm')), poll).toBe(1);

    await page.getByRole('tab', { name: 'Files' }).click();
    const pathBar = page.getByRole('textbox', { name: 'Path' });
    await expect.poll(() => pathBar.inputValue(), poll).not.toBe('');
    await pathBar.fill('/work');
    await pathBar.press('Enter');
    await expect.poll(() => page.getByText('from-the-container.txt').count(), poll).toBe(1);
    await saveScreenshot(page, 'container-files');
  }, 150_000);
});
