// What only a real browser lays out, on a short (1024×700) window: the Menu, which lists every
// command, stays inside the window and scrolls, so its last command can be reached and clicked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { startWebApp, type WebApp } from './web-app';
import { reportOnFailure } from './screens';

const poll = { timeout: 30_000, interval: 100 };
const VIEWPORT = { width: 1024, height: 700 };

describe('web app on a 1024×700 window', () => {
  let app: WebApp;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    app = await startWebApp();
    browser = await launchBrowser({ disableWebgl: true, viewport: VIEWPORT });
    await browser.page.goto(app.url);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('keeps the Menu inside the window, its last command in reach', async () => {
    const { page } = browser;
    reportOnFailure(page, 'short-window-menu', app);
    // The first shell's pane takes the focus as it opens: open the Menu after that, or the pane
    // can take the focus back from it.
    await expect.poll(() => page.locator('section.pane .xterm-rows').count(), poll).toBe(1);
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByRole('menu', { name: 'Menu' });
    await expect.poll(() => menu.getByRole('menuitem').count(), poll).toBeGreaterThan(10);
    const box = (await menu.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(VIEWPORT.height);

    // Up from the first command wraps to the last; focusing it scrolls it into the menu's view. The
    // menu moves the focus into itself as it opens: wait for that before pressing a key.
    await expect.poll(() => menu.evaluate((el) => el.contains(document.activeElement)), poll).toBe(true);
    await page.keyboard.press('ArrowUp');
    const last = menu.getByRole('menuitem').last();
    await expect.poll(() => last.evaluate((el) => el === document.activeElement), poll).toBe(true);
    const lastBox = (await last.boundingBox())!;
    expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(VIEWPORT.height);
    // Nothing covers it, and the window itself did not scroll to show it.
    const hit = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('[role="menuitem"]')?.textContent ?? null,
      { x: lastBox.x + lastBox.width / 2, y: lastBox.y + lastBox.height / 2 },
    );
    expect(hit).toBe(await last.textContent());
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });
});
