// Terminal settings in the web app through Chromium (issue #14): font size, line height, cursor
// style and colour scheme changed in the Settings dialog change an already open terminal with
// output at once (same xterm, scrollback kept); the right-click setting switches between the menu
// and paste; the bell flashes the pane on `printf '\a'`; a blinking cursor holds still while keys
// come. Saves the dialog's screenshots (the user guide's docs/images/settings-*.png are copies) and
// audits it with axe-core.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { startWebApp, type WebApp } from './web-app';
import { countInPane, focusTerminal, pane, typeLine } from './terminal-text';
import { saveScreenshot, reportOnFailure } from './screens';
import { seriousAxeViolations } from './page-audit';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };
const TEST_TIMEOUT_MS = 240_000;

/** The Settings dialog, opened from the app menu. */
async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('menuitem', { name: 'Settings…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect.poll(() => dialog.count(), poll).toBe(1);
  return dialog;
}

async function saveAndClose(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => dialog.count(), poll).toBe(0);
}

/** What the first pane's xterm draws with: row height, font size, text colour, cursor shape. */
function terminalLook(page: Page) {
  return pane(page)
    .locator('.xterm')
    .evaluate((xterm) => {
      const rows = xterm.querySelector('.xterm-rows')!;
      const row = rows.firstElementChild as HTMLElement;
      const cursor = xterm.querySelector('.xterm-cursor');
      return {
        rowHeight: row.getBoundingClientRect().height,
        rows: rows.children.length,
        fontSize: getComputedStyle(rows).fontSize,
        colour: getComputedStyle(rows).color,
        frame: getComputedStyle(xterm.closest('.terminal-mount')!).backgroundColor,
        cursor: cursor ? Array.from(cursor.classList).filter((c) => c.startsWith('xterm-cursor-')) : [],
        tag: (xterm as HTMLElement).dataset.e2eTag ?? null,
      };
    });
}

describe('web app: terminal settings apply live', () => {
  let app: WebApp;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    app = await startWebApp();
    browser = await launchBrowser({ disableWebgl: true, viewport: { width: 1024, height: 700 } });
    const { page, context } = browser;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(app.url).origin,
    });
    await page.goto(app.url);
    // expect.poll works only inside a test: wait for the first shell's pane by hand.
    const deadline = Date.now() + UI_TIMEOUT_MS;
    while ((await pane(page).locator('.xterm-rows').count()) !== 1) {
      if (Date.now() > deadline) throw new Error('the first shell did not open a pane');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, TEST_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it(
    'changes font size, line height, cursor and scheme of an open terminal at once, keeping its scrollback',
    async () => {
      const { page } = browser;
      reportOnFailure(page, 'terminal-settings-live', app);
      await page.emulateMedia({ colorScheme: 'dark' });
      // Output that scrolls off the screen, then a marker on screen.
      await typeLine(page, 'echo first-of-all-$((6*7)); seq 1 120; echo on-screen-$((2*2))');
      await expect.poll(() => countInPane(page, /^on-screen-4$/m), poll).toBe(1);
      await expect.poll(() => countInPane(page, /^first-of-all-42$/m), poll).toBe(0);
      // Marks the xterm element: a recreated terminal would come without the mark.
      await pane(page)
        .locator('.xterm')
        .evaluate((x) => ((x as HTMLElement).dataset.e2eTag = 'the-same-terminal'));
      await focusTerminal(page);
      const before = await terminalLook(page);
      expect(before.fontSize).toBe('13px');
      expect(before.cursor).toContain('xterm-cursor-block');

      const dialog = await openSettings(page);
      await saveScreenshot(page, 'settings-1024x700-dark');
      expect(await seriousAxeViolations(page), 'settings dialog, dark').toEqual([]);
      await dialog.getByLabel('Font size').fill('20');
      await dialog.getByLabel('Line height').fill('1.5');
      await dialog.getByLabel('Cursor', { exact: true }).selectOption('bar');
      await dialog.getByLabel('Terminal colours').selectOption('solarized-dark');
      // The preview in the dialog shows the scheme before anything is saved.
      await expect
        .poll(
          () =>
            dialog
              .getByRole('group', { name: 'Preview of a terminal with these settings' })
              .evaluate((p) => getComputedStyle(p).backgroundColor),
          poll,
        )
        .toBe('rgb(0, 43, 54)');
      await saveAndClose(page);

      await focusTerminal(page);
      await expect.poll(async () => (await terminalLook(page)).fontSize, poll).toBe('20px');
      const after = await terminalLook(page);
      expect(after.tag).toBe('the-same-terminal');
      // 20/13 of the font at 1.5 times the line: rows at least twice as tall as before.
      expect(after.rowHeight).toBeGreaterThan(before.rowHeight * 2);
      // Refitted to the pane: fewer, taller rows (the shell was told the new size), none cut off.
      expect(after.rows).toBeLessThan(before.rows);
      expect(after.cursor).toContain('xterm-cursor-bar');
      expect(after.colour).toBe('rgb(147, 161, 161)');
      expect(after.frame).toBe('rgb(0, 43, 54)');

      // The scrollback is still there: search finds the first line and scrolls to it.
      await page.keyboard.press('Control+Shift+F');
      await page.getByRole('textbox', { name: 'Search terminal' }).fill('first-of-all-42');
      await expect.poll(() => countInPane(page, /^first-of-all-42$/m), poll).toBe(1);
      await page.keyboard.press('Escape');

      await page.emulateMedia({ colorScheme: 'light' });
      await openSettings(page);
      await saveScreenshot(page, 'settings-1024x700-light');
      expect(await seriousAxeViolations(page), 'settings dialog, light').toEqual([]);
      await page.keyboard.press('Escape');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'right click opens the menu, or pastes when set to paste',
    async () => {
      const { page } = browser;
      reportOnFailure(page, 'terminal-settings-right-click', app);
      const mount = pane(page).locator('.terminal-mount');
      const menu = page.getByRole('menu', { name: 'Terminal' });
      await mount.click({ button: 'right' });
      await expect.poll(() => menu.count(), poll).toBe(1);
      await page.keyboard.press('Escape');
      await expect.poll(() => menu.count(), poll).toBe(0);

      const dialog = await openSettings(page);
      await dialog.getByLabel('Right click').selectOption('paste');
      await saveAndClose(page);
      await page.evaluate(() =>
        (
          globalThis as unknown as { navigator: { clipboard: { writeText: (t: string) => Promise<void> } } }
        ).navigator.clipboard.writeText('echo right-pasted-$((5*5))'),
      );
      await mount.click({ button: 'right' });
      await focusTerminal(page);
      await page.keyboard.press('Enter');
      await expect.poll(() => countInPane(page, /^right-pasted-25$/m), poll).toBe(1);
      expect(await menu.count()).toBe(0);

      await openSettings(page);
      await page.getByRole('dialog', { name: 'Settings' }).getByLabel('Right click').selectOption('menu');
      await saveAndClose(page);
      await mount.click({ button: 'right' });
      await expect.poll(() => menu.count(), poll).toBe(1);
      await page.keyboard.press('Escape');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "flashes the pane on printf '\\a', and not once the bell is off",
    async () => {
      const { page } = browser;
      reportOnFailure(page, 'terminal-settings-bell', app);
      // Records every flash, however short, as it starts.
      await pane(page)
        .locator('.terminal-host')
        .evaluate((host) => {
          const seen = { flashes: 0 };
          (globalThis as unknown as { bellFlashes: typeof seen }).bellFlashes = seen;
          new MutationObserver(() => {
            if (host.classList.contains('bell-flash')) seen.flashes += 1;
          }).observe(host, { attributes: true, attributeFilter: ['class'] });
        });
      const flashes = () =>
        page.evaluate(
          () => (globalThis as unknown as { bellFlashes: { flashes: number } }).bellFlashes.flashes,
        );
      await typeLine(page, "printf '\\a'; echo rang-$((3+4))");
      await expect.poll(() => countInPane(page, /^rang-7$/m), poll).toBe(1);
      await expect.poll(flashes, poll).toBe(1);

      const dialog = await openSettings(page);
      await dialog.getByLabel('Bell').selectOption('off');
      await saveAndClose(page);
      await typeLine(page, "printf '\\a'; echo quiet-$((4+4))");
      // The marker is drawn after the bell was handled, so no flash by then means none at all.
      await expect.poll(() => countInPane(page, /^quiet-8$/m), poll).toBe(1);
      expect(await flashes()).toBe(1);
    },
    TEST_TIMEOUT_MS,
  );
  it(
    'holds the blinking cursor still while keys come (no blink animation) and blinks again after a pause',
    async () => {
      const { page } = browser;
      reportOnFailure(page, 'terminal-settings-typing-cursor', app);
      await typeLine(page, 'echo blink-$((5+6))');
      await expect.poll(() => countInPane(page, /^blink-11$/m), poll).toBe(1);
      // The animation xterm's DOM renderer gives the focused cursor ('none' while it holds still).
      const animation = () =>
        pane(page)
          .locator('.xterm-rows')
          .evaluate((rows) => {
            const cursor = rows.querySelector('.xterm-cursor');
            return cursor ? getComputedStyle(cursor).animationName : 'no cursor';
          });
      // Blinking is the default; it starts again a second after the Enter above.
      const holding = () => pane(page).locator('.terminal-host.cursor-still').count();
      await expect.poll(holding, poll).toBe(0);
      await expect.poll(animation, poll).toMatch(/^blink_/);
      // What the cursor's animation was as the host took the typing class, however briefly.
      await pane(page)
        .locator('.terminal-host')
        .evaluate((host) => {
          const seen: string[] = [];
          (globalThis as unknown as { stillCursor: string[] }).stillCursor = seen;
          new MutationObserver(() => {
            const cursor = host.querySelector('.xterm-rows .xterm-cursor');
            if (host.classList.contains('cursor-still') && cursor)
              seen.push(getComputedStyle(cursor).animationName);
          }).observe(host, { attributes: true, attributeFilter: ['class'] });
        });
      await page.keyboard.type('#');
      const still = () =>
        page.evaluate(() => (globalThis as unknown as { stillCursor: string[] }).stillCursor);
      await expect.poll(still, poll).toEqual(['none']);
      await expect.poll(animation, poll).toMatch(/^blink_/);
      await page.keyboard.press('Backspace');
    },
    TEST_TIMEOUT_MS,
  );
});
