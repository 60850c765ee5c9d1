// Reads what a terminal pane shows, through xterm's DOM renderer rows (the e2e browser runs with
// WebGL off, so the app falls back to that renderer), and types into a pane.
import type { Locator, Page } from 'playwright-core';

export function pane(page: Page, index = 0): Locator {
  return page.locator('section.pane').nth(index);
}

/** The visible rows of a pane, one string per row, right-trimmed. */
async function paneLines(page: Page, index = 0): Promise<string[]> {
  return pane(page, index)
    .locator('.xterm-rows')
    .evaluate((rows) => Array.from(rows.children).map((row) => (row.textContent ?? '').replace(/\s+$/, '')));
}

export async function paneText(page: Page, index = 0): Promise<string> {
  return (await paneLines(page, index)).join('\n');
}

/** How often `pattern` occurs in the pane's visible text. */
export async function countInPane(page: Page, pattern: RegExp, index = 0): Promise<number> {
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  return [...(await paneText(page, index)).matchAll(new RegExp(pattern.source, flags))].length;
}

/** Focuses the pane's terminal and types a line (Enter included). */
export async function typeLine(page: Page, line: string, index = 0): Promise<void> {
  await focusTerminal(page, index);
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

/** Puts keyboard focus into the pane's terminal (xterm's input textarea), so typing lands there. */
export async function focusTerminal(page: Page, index = 0): Promise<void> {
  await pane(page, index).locator('.xterm-screen').click();
  await pane(page, index).locator('textarea.xterm-helper-textarea').focus();
}
