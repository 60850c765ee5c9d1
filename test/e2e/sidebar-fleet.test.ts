// A long environment list in Chromium: rows out of the sidebar's view are not rendered (their
// content is skipped, content-visibility), so that a fleet's status changes repaint only the rows
// in view. Chromium paints a scroller's content far past its edge, and with every row painted a
// fleet of 100 cut at once cost ~10 ms of paint a frame and long tasks (issue #22).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { waitFor } from '../support/wait';
import { BridgeClient } from '../bench/lib/web-app';
import { startWebApp, type WebApp } from './web-app';
import { reportOnFailure } from './screens';

const UI_TIMEOUT_MS = 30_000;
/** Far more rows than the sidebar shows at 1280×800 (about 14). */
const ENVIRONMENTS = 40;

/** Whether the row's button is rendered, i.e. not inside skipped content. */
async function rowRendered(browser: LaunchedBrowser, index: number): Promise<boolean> {
  return browser.page.evaluate((i) => {
    const button = document.querySelectorAll('.sidebar li')[i]?.querySelector('button');
    if (!button) throw new Error(`no sidebar row ${i}`);
    return button.checkVisibility({ contentVisibilityAuto: true });
  }, index);
}

describe('web app: a long environment list', () => {
  let app: WebApp;
  let bridge: BridgeClient;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    app = await startWebApp();
    bridge = await BridgeClient.connect(app.url);
    // Nothing listens on port 1: each environment keeps retrying, its row's status changing.
    for (let i = 1; i <= ENVIRONMENTS; i += 1) {
      await bridge.invoke('environments.add', {
        name: `fleet ${i}`,
        color: '#3366aa',
        settings: { kind: 'ws', url: 'ws://127.0.0.1:1' },
      });
    }
    browser = await launchBrowser({ disableWebgl: true });
    await browser.page.goto(app.url);
    await waitFor(
      async () => (await browser.page.locator('.sidebar li').count()) === ENVIRONMENTS + 1,
      'every environment in the sidebar',
      UI_TIMEOUT_MS,
      100,
    );
  }, 120_000);
  afterAll(async () => {
    bridge?.close();
    await browser?.close();
    await app?.stop();
  });

  it('renders only the rows in view, and a row once scrolled to', async () => {
    reportOnFailure(browser.page, 'sidebar-fleet', app);
    expect(await rowRendered(browser, 0)).toBe(true);
    expect(await rowRendered(browser, ENVIRONMENTS)).toBe(false);
    // Reached by name all the same (the accessibility tree keeps skipped rows), and drawn once in view.
    const last = browser.page.getByRole('button', {
      name: new RegExp(`^Environment fleet ${ENVIRONMENTS}\\s`),
    });
    await last.scrollIntoViewIfNeeded({ timeout: UI_TIMEOUT_MS });
    await waitFor(() => rowRendered(browser, ENVIRONMENTS), 'the last row drawn', UI_TIMEOUT_MS, 100);
    expect(await rowRendered(browser, 0)).toBe(false);
  }, 60_000);
});
