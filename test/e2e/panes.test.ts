// Panes and tabs in the web app, in Chromium against a real Local shell (issue #14, Panes): the
// program's title (OSC 0) names a tab, a renamed and reordered strip survives a reload, Alt+Arrow
// moves focus to the pane next on screen in a 2×2 split, maximize hides panes without stopping
// them, tabs mark unseen output and unseen exits, and the sidebar marks an environment whose link
// is down. The new controls are checked by axe-core too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { startServer, type StartedServer } from '../support/exec-servers';
import { addEnvironment } from './environment-ui';
import { clippedRowActions, seriousAxeViolations } from './page-audit';
import { saveScreenshot, reportOnFailure } from './screens';
import { countInPane, pane, paneText, typeLine } from './terminal-text';
import { startWebApp, type WebApp } from './web-app';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };
const TEST_TIMEOUT_MS = 300_000;

const strip = (page: Page) => page.getByRole('tablist', { name: 'Terminal tabs' });
// Each tab's title (a running shell command shows beside it, shell integration).
const tabNames = (page: Page) => strip(page).getByRole('tab').locator('.tab-title').allTextContents();

/** Every pane on screen with its place, by its pane id. */
async function paneBoxes(page: Page): Promise<{ id: string; x: number; y: number }[]> {
  return page.locator('section.pane').evaluateAll((els) =>
    els.map((el) => ({
      id: el.getAttribute('data-pane-id') ?? '',
      x: el.getBoundingClientRect().left,
      y: el.getBoundingClientRect().top,
    })),
  );
}

/** The pane holding keyboard focus (xterm's textarea lives inside it), by its pane id. */
function focusedPaneId(page: Page): Promise<string | null> {
  return page.evaluate(
    () => document.activeElement?.closest('section.pane')?.getAttribute('data-pane-id') ?? null,
  );
}

function paneById(page: Page, id: string): Locator {
  return page.locator(`section.pane[data-pane-id="${id}"]`);
}

/** Waits until the pane with this id has drawn something (its shell's prompt). */
async function promptIn(page: Page, id: string): Promise<void> {
  await expect
    .poll(
      async () => ((await paneById(page, id).locator('.xterm-rows').textContent()) ?? '').trim().length,
      poll,
    )
    .toBeGreaterThan(0);
}

describe('web app: panes and tabs', () => {
  let app: WebApp;
  let browser: LaunchedBrowser;
  let server: StartedServer | null = null;

  beforeAll(async () => {
    app = await startWebApp();
    browser = await launchBrowser({ disableWebgl: true, viewport: { width: 1440, height: 900 } });
  }, TEST_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await server?.stop();
  });

  it(
    'titles, renames, reorders and marks tabs; moves focus by position; maximizes without stopping panes',
    async () => {
      const { page } = browser;
      reportOnFailure(page, 'panes', app);
      await page.goto(app.url);
      await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);
      await typeLine(page, 'echo ready-$((2*3))');
      await expect.poll(() => countInPane(page, /ready-6/), poll).toBe(1);

      // The program's title names the tab, and a user's name wins over it.
      await typeLine(page, "printf '\\033]0;hello\\007'");
      await expect.poll(() => tabNames(page), poll).toEqual(['1: hello']);
      await strip(page).getByRole('tab', { name: '1: hello' }).dblclick();
      await page.getByRole('textbox', { name: 'Tab name' }).fill('first');
      await page.keyboard.press('Enter');
      await expect.poll(() => tabNames(page), poll).toEqual(['1: first']);

      // A 2×2 grid: split right, then each column down. By tree order the pane after the
      // bottom-left one is the top-right one; on screen, right of bottom-left is bottom-right.
      const [topLeft] = (await paneBoxes(page)).map((b) => b.id);
      await paneById(page, topLeft!).getByRole('button', { name: 'Split right' }).click();
      await expect.poll(() => page.locator('section.pane').count(), poll).toBe(2);
      const topRight = (await paneBoxes(page)).find((b) => b.id !== topLeft)!.id;
      await paneById(page, topLeft!).getByRole('button', { name: 'Split down' }).click();
      await expect.poll(() => page.locator('section.pane').count(), poll).toBe(3);
      await paneById(page, topRight).getByRole('button', { name: 'Split down' }).click();
      await expect.poll(() => page.locator('section.pane').count(), poll).toBe(4);
      const boxes = await paneBoxes(page);
      const byPlace = (right: boolean, bottom: boolean) =>
        boxes.find((b) => b.x > boxes[0]!.x + 10 === right && b.y > boxes[0]!.y + 10 === bottom)!.id;
      const grid = {
        tl: byPlace(false, false),
        tr: byPlace(true, false),
        bl: byPlace(false, true),
        br: byPlace(true, true),
      };
      expect(grid.tl).toBe(topLeft);
      expect(boxes.map((b) => b.id)).toEqual([grid.tl, grid.bl, grid.tr, grid.br]);
      for (const id of Object.values(grid)) await promptIn(page, id);

      // Alt+Left is the browser's Back: the page must keep it, or this test leaves the app.
      const appPage = page.url();
      await paneById(page, grid.bl).locator('.xterm-screen').click();
      await expect.poll(() => focusedPaneId(page), poll).toBe(grid.bl);
      await page.keyboard.press('Alt+ArrowRight');
      await expect.poll(() => focusedPaneId(page), poll).toBe(grid.br);
      expect(await paneById(page, grid.br).getAttribute('class')).toContain('focused');
      await page.keyboard.press('Alt+ArrowUp');
      await expect.poll(() => focusedPaneId(page), poll).toBe(grid.tr);
      await page.keyboard.press('Alt+ArrowLeft');
      await expect.poll(() => focusedPaneId(page), poll).toBe(grid.tl);
      await page.keyboard.press('Alt+ArrowLeft'); // the edge: focus stays, the page stays
      await page.keyboard.press('Alt+ArrowDown');
      await expect.poll(() => focusedPaneId(page), poll).toBe(grid.bl);
      expect(page.url()).toBe(appPage);
      await saveScreenshot(page, 'panes-2x2');
      expect(await seriousAxeViolations(page), 'panes 2×2').toEqual([]);
      // At the smallest window, every header control of the four panes is still in view.
      await page.setViewportSize({ width: 1024, height: 700 });
      await expect.poll(() => clippedRowActions(page, '.pane-header button'), poll).toEqual([]);
      expect(await page.locator('.pane-header button').count()).toBe(4 * 5);
      await saveScreenshot(page, 'panes-2x2-1024x700');
      await page.setViewportSize({ width: 1440, height: 900 });

      // Maximize the top-left pane while the bottom-right one keeps printing: the others keep
      // running (their output marks the tab), and come back with all of it on restore.
      await typeLine(page, 'echo kept-$((6*7))', 2);
      await expect.poll(() => countInPane(page, /^kept-42$/m, 2), poll).toBe(1);
      await typeLine(page, 'for i in 1 2 3 4 5 6; do echo tick-$i; sleep 0.3; done', 3);
      await paneById(page, grid.tl).locator('.xterm-screen').click();
      await page.keyboard.press('Control+Shift+Enter');
      await expect.poll(() => page.locator('section.pane').count(), poll).toBe(1);
      await expect.poll(() => pane(page).getByText('3 more hidden').count(), poll).toBe(1);
      await expect.poll(() => strip(page).getByRole('img', { name: 'new output' }).count(), poll).toBe(1);
      await saveScreenshot(page, 'panes-maximized');
      expect(await seriousAxeViolations(page), 'maximized').toEqual([]);
      const restore = pane(page).getByRole('button', { name: 'Restore panes' });
      await restore.focus();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.locator('section.pane').count(), poll).toBe(4);
      const bottomRight = (await paneBoxes(page)).findIndex((b) => b.id === grid.br);
      await expect.poll(() => countInPane(page, /^tick-6$/m, bottomRight), poll).toBe(1);
      for (let i = 1; i <= 6; i++)
        expect(await countInPane(page, new RegExp(`^tick-${i}$`, 'm'), bottomRight)).toBe(1);
      const topRightIndex = (await paneBoxes(page)).findIndex((b) => b.id === grid.tr);
      expect(await countInPane(page, /^kept-42$/m, topRightIndex)).toBe(1);
      await expect.poll(() => strip(page).getByRole('img', { name: 'new output' }).count(), poll).toBe(0);

      // A second tab: output while it is hidden marks it until it is shown; its shell ending
      // while hidden marks it differently.
      await page.getByRole('button', { name: 'New terminal' }).click();
      await expect.poll(() => strip(page).getByRole('tab').count(), poll).toBe(2);
      await expect.poll(() => page.locator('section.pane').count(), poll).toBe(1);
      await expect.poll(async () => (await paneText(page)).trim().length, poll).toBeGreaterThan(0);
      await typeLine(page, 'echo pid-$$');
      await expect.poll(async () => /pid-\d+/.test(await paneText(page)), poll).toBe(true);
      const pid = /pid-(\d+)/.exec(await paneText(page))![1]!;
      await typeLine(page, 'while sleep 0.3; do echo tick; done');
      const second = strip(page).getByRole('tab').nth(1);
      await strip(page).getByRole('tab').first().click();
      await expect.poll(() => second.getByRole('img', { name: 'new output' }).count(), poll).toBe(1);
      await second.click();
      await expect.poll(() => strip(page).getByRole('img', { name: 'new output' }).count(), poll).toBe(0);
      await strip(page).getByRole('tab').first().click();
      await expect.poll(() => page.locator('section.pane').count(), poll).toBe(4);
      await typeLine(
        page,
        `kill -9 ${pid}`,
        (await paneBoxes(page)).findIndex((b) => b.id === grid.bl),
      );
      await expect.poll(() => second.getByRole('img', { name: 'process ended' }).count(), poll).toBe(1);
      expect(await second.getByRole('img', { name: 'new output' }).count()).toBe(0);
      await saveScreenshot(page, 'tabs-marked');
      expect(await seriousAxeViolations(page), 'marked tabs').toEqual([]);

      // Drag the second tab before the first: the order changes, and with the name it survives a
      // reload (the host keeps the layout).
      await second.dragTo(strip(page).getByRole('tab').first(), { targetPosition: { x: 4, y: 8 } });
      await expect.poll(() => tabNames(page), poll).toEqual(['1: bash', '2: first (4)']);
      await page.keyboard.press('Alt+Shift+PageDown'); // the web binding of Ctrl+Shift+PageDown
      await expect.poll(() => tabNames(page), poll).toEqual(['1: bash', '2: first (4)']);
      await strip(page).getByRole('tab', { name: /first/ }).click();
      await strip(page).getByRole('tab', { name: /first/ }).press('Alt+Shift+PageUp');
      await expect.poll(() => tabNames(page), poll).toEqual(['1: first (4)', '2: bash']);
      await second.dragTo(strip(page).getByRole('tab').first(), { targetPosition: { x: 4, y: 8 } });
      await expect.poll(() => tabNames(page), poll).toEqual(['1: bash', '2: first (4)']);
      await page.reload();
      await expect.poll(() => tabNames(page), poll).toEqual(['1: bash', '2: first (4)']);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'marks an environment whose link is down in the sidebar, by name and not colour alone',
    async () => {
      const { page } = browser;
      reportOnFailure(page, 'panes-sidebar', app);
      server = await startServer('tether', 'ws');
      await addEnvironment(page, server.transportSpec(), UI_TIMEOUT_MS);
      const entry = page.getByRole('button', { name: 'Environment Lab box' });
      // The marker is the button's description, kept out of its name (includeHidden: it is aria-hidden).
      expect(await entry.getByRole('img', { name: /^Link/, includeHidden: true }).count()).toBe(0);
      await server.stop();
      server = null;
      const marker = entry.getByRole('img', {
        name: /^Link (down, reconnecting|failed)$/,
        includeHidden: true,
      });
      await expect.poll(() => marker.count(), poll).toBe(1);
      const describedBy = await entry.getAttribute('aria-describedby');
      expect(await marker.getAttribute('id')).toBe(describedBy);
      await saveScreenshot(page, 'sidebar-link-down');
      expect(await seriousAxeViolations(page), 'sidebar link down').toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
