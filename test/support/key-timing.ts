// Keystroke → glyph timing in a page of the app, for the predictive-echo e2e and the typing bench.
import type { Page } from 'playwright-core';

/**
 * Presses `key` and resolves with the ms from its keydown until xterm's DOM rows read `line` on
 * some row (timed in the page, as the rows change).
 */
export async function pressUntilShown(page: Page, key: string, line: string): Promise<number> {
  // Listener and observer are in place before the key goes (an observer set up after the row
  // changed would wait for the next change).
  await page.evaluate((wanted) => {
    const w = window as unknown as { keyDownAt: number; shownAfter: Promise<number> };
    w.keyDownAt = 0;
    document.addEventListener('keydown', () => (w.keyDownAt ||= performance.now()), {
      capture: true,
      once: true,
    });
    const rows = document.querySelector('section.pane .xterm-rows')!;
    w.shownAfter = new Promise<number>((resolve) => {
      const observer = new MutationObserver(() => {
        if (!Array.from(rows.children).some((row) => (row.textContent ?? '').trimEnd().endsWith(wanted)))
          return;
        observer.disconnect();
        resolve(performance.now() - w.keyDownAt);
      });
      observer.observe(rows, { subtree: true, childList: true, characterData: true });
    });
  }, line);
  await page.keyboard.press(key);
  return page.evaluate(() => (window as unknown as { shownAfter: Promise<number> }).shownAfter);
}
