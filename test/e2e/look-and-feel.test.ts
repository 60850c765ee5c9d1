// Every main view of the web app in Chromium, at 1024×700 and 1440×900, in light and dark: saved as
// screenshots (test-results/screenshots), checked by axe-core (no serious or critical violation)
// and for clipped row actions; plus what only a real browser shows: the image preview's layout,
// a dialog's width when a message appears, and copy and paste through the terminal's context menu.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { startWebApp, type WebApp } from './web-app';
import { countInPane, pane, typeLine } from './terminal-text';
import { saveScreenshot, reportOnFailure } from './screens';
import { clippedRowActions, seriousAxeViolations } from './page-audit';
import { waitFor } from '../support/wait';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };
const VIEW_TEST_TIMEOUT_MS = 300_000;

/** A 2×2 PNG (red, green, blue, white), enough to lay out an image preview. */
const PNG_2X2 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
const LONG_NAME = 'a-file-whose-name-goes-on-and-on-well-past-any-sensible-column-width-2026-12-01.log';

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

describe('web app: look and feel of every main view', () => {
  let app: WebApp;
  let browser: LaunchedBrowser;
  let scratch: string;

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'tether-e2e-look-'));
    writeFileSync(path.join(scratch, 'notes.txt'), 'first line of the notes\n');
    writeFileSync(path.join(scratch, LONG_NAME), 'log\n');
    writeFileSync(path.join(scratch, 'picture.png'), PNG_2X2);
    mkdirSync(path.join(scratch, 'a-folder-with-a-rather-long-name-for-the-tree'));
    app = await startWebApp();
    browser = await launchBrowser({ disableWebgl: true, viewport: SIZES[1] });
    const { page } = browser;
    await page.goto(app.url);
    await waitFor(
      async () => (await pane(page).locator('.xterm-rows').count()) === 1,
      'the terminal rows',
      UI_TIMEOUT_MS,
      100,
    );
    await typeLine(page, 'echo ready-$((2*3))');
    await waitFor(
      async () => (await countInPane(page, /ready-6/)) === 1,
      'the echo of ready-6',
      UI_TIMEOUT_MS,
      100,
    );
    // Processes: one running, one ended with a long command line, neither in a pane.
    await page.getByRole('tab', { name: 'Processes' }).click();
    await page.getByLabel('Open in a pane').uncheck();
    const commands = ['sleep 600', `echo finished-with-a-long-command-line-that-goes-on ${'x'.repeat(60)}`];
    for (const [i, command] of commands.entries()) {
      await page.getByLabel('Command', { exact: true }).fill(command);
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      // One at a time: a start that completes clears the form, so the next command is typed after it.
      await waitFor(
        async () => (await page.getByRole('row', { name: /^Process / }).count()) === i + 2,
        `process row ${i + 2}`,
        UI_TIMEOUT_MS,
        100,
      );
    }
    await page.getByRole('tab', { name: 'Files' }).click();
    const pathBar = page.getByRole('textbox', { name: 'Path' });
    await waitFor(
      async () => (await pathBar.inputValue()) !== '',
      'the home folder in the path bar',
      UI_TIMEOUT_MS,
      100,
    );
    await pathBar.fill(scratch);
    await pathBar.press('Enter');
    await waitFor(
      async () => (await page.getByRole('button', { name: 'notes.txt', exact: true }).count()) === 1,
      'notes.txt in the list',
      UI_TIMEOUT_MS,
      100,
    );
  }, VIEW_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });

  /** Screenshot, axe and clipping check of the view as it is now. */
  async function audit(page: Page, view: string, label: string): Promise<void> {
    await saveScreenshot(page, `${view}-${label}`);
    expect(await seriousAxeViolations(page), `${view} ${label}`).toEqual([]);
    expect(await clippedRowActions(page), `${view} ${label}`).toEqual([]);
  }

  for (const scheme of SCHEMES) {
    for (const size of SIZES) {
      const label = `${size.width}x${size.height}-${scheme}`;
      it(
        `${label}: terminals, processes, files, health, menus and dialogs`,
        async () => {
          const { page } = browser;
          reportOnFailure(page, `look-${label}`, app);
          await page.setViewportSize(size);
          await page.emulateMedia({ colorScheme: scheme });

          await page.getByRole('tab', { name: 'Terminals' }).click();
          await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);
          await audit(page, 'terminals', label);

          await page.getByRole('tab', { name: 'Processes' }).click();
          await expect.poll(() => page.getByRole('row', { name: /^Process / }).count(), poll).toBe(3);
          await audit(page, 'processes', label);
          await page.getByRole('button', { name: /^More actions for .*sleep 600/ }).click();
          await expect.poll(() => page.getByRole('menuitem', { name: 'Kill' }).isVisible(), poll).toBe(true);
          await audit(page, 'process-menu', label);
          await page.keyboard.press('Escape');

          await page.getByRole('tab', { name: 'Files' }).click();
          await page.getByRole('button', { name: 'picture.png', exact: true }).click();
          const preview = page.getByRole('complementary', { name: 'Preview of picture.png' });
          await expect.poll(() => preview.getByRole('img').count(), poll).toBe(1);
          // The name sits above the image, not beside it.
          const nameBox = (await preview.locator('strong').boundingBox())!;
          const imageBox = (await preview.getByRole('img').boundingBox())!;
          expect(nameBox.y + nameBox.height).toBeLessThanOrEqual(imageBox.y + 0.5);
          await audit(page, 'files-preview', label);

          await page.getByRole('button', { name: 'notes.txt', exact: true }).click({ button: 'right' });
          await expect
            .poll(() => page.getByRole('menu', { name: 'Actions for notes.txt' }).count(), poll)
            .toBe(1);
          await audit(page, 'file-menu', label);
          await page.keyboard.press('Escape');

          await page.getByRole('button', { name: 'More actions for notes.txt' }).click();
          await page.getByRole('menuitem', { name: 'Delete' }).click();
          const confirm = page.getByRole('dialog', { name: 'Delete notes.txt?' });
          await expect.poll(() => confirm.count(), poll).toBe(1);
          await audit(page, 'delete-dialog', label);
          await confirm.getByRole('button', { name: 'Cancel' }).click();

          await page.getByRole('tab', { name: 'Health' }).click();
          await expect
            .poll(() => page.getByRole('img', { name: /^RTT over the last/ }).count(), poll)
            .toBe(1);
          await audit(page, 'health', label);

          await page.getByRole('button', { name: 'Add environment' }).click();
          const dialog = page.getByRole('dialog', { name: 'Add environment' });
          const widthBefore = (await dialog.boundingBox())!.width;
          await dialog.getByLabel('Connect via').selectOption('command');
          await dialog.getByRole('button', { name: 'Test connection' }).click();
          await expect.poll(() => dialog.getByText('Enter the command to run.').count(), poll).toBe(1);
          expect((await dialog.boundingBox())!.width).toBe(widthBefore);
          await audit(page, 'add-environment', label);
          await page.keyboard.press('Escape');

          await page.getByRole('button', { name: 'Shortcuts' }).click();
          await expect
            .poll(() => page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count(), poll)
            .toBe(1);
          await audit(page, 'shortcuts', label);
          await page.keyboard.press('Escape');
        },
        VIEW_TEST_TIMEOUT_MS,
      );
    }
  }

  it(
    'copies and pastes through the terminal context menu, with the real clipboard',
    async () => {
      const { page, context } = browser;
      reportOnFailure(page, 'look-clipboard', app);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(app.url).origin,
      });
      await page.getByRole('tab', { name: 'Terminals' }).click();
      await typeLine(page, 'clear; echo copy-me-$((40+2))');
      await expect.poll(() => countInPane(page, /^copy-me-42$/m), poll).toBe(1);
      const mount = pane(page).locator('.terminal-mount');
      await mount.click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Select all' }).click();
      await mount.click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Copy' }).click();
      await expect
        .poll(
          () =>
            page.evaluate(() =>
              (
                globalThis as unknown as { navigator: { clipboard: { readText: () => Promise<string> } } }
              ).navigator.clipboard.readText(),
            ),
          poll,
        )
        .toContain('copy-me-42');
      await page.evaluate(() =>
        (
          globalThis as unknown as { navigator: { clipboard: { writeText: (t: string) => Promise<void> } } }
        ).navigator.clipboard.writeText('echo pasted-$((3*3))'),
      );
      await mount.click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Paste' }).click();
      // Pasting reads the clipboard first: Enter before the echoed text would run an empty line.
      await expect.poll(() => countInPane(page, /echo pasted-\$\(\(3\*3\)\)/), poll).toBe(1);
      await page.keyboard.press('Enter');
      await expect.poll(() => countInPane(page, /^pasted-9$/m), poll).toBe(1);
    },
    VIEW_TEST_TIMEOUT_MS,
  );
});
