// Shell integration in the web app in Chromium, with the Local environment's real bash: a split
// starts in the folder the shell moved to, each command gets a mark in the pane's margin coloured
// by its exit status, Ctrl+Shift+Up jumps back through them (scrolling to the command), the
// palette copies the output of the one jumped to, the tab shows a badge once a command failed,
// and a `file:line` path a command printed, relative to the folder it ran in, opens the editor.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { localRig } from './local-rig';
import { reportOnFailure } from './screens';
import { focusTerminal, pane, paneText, typeLine } from './terminal-text';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };

describe('web app: shell integration', () => {
  const rig = localRig('tether-e2e-shell-');

  it('marks commands by status, jumps back to one, shows a failure badge and opens file:line links', async () => {
    const { page } = rig.browser;
    reportOnFailure(page, 'shell-integration', rig.app);
    mkdirSync(path.join(rig.scratch, 'src'));
    writeFileSync(path.join(rig.scratch, 'src', 'app.ts'), 'one\ntwo\nthe third line\nfour\n');
    await page.goto(rig.app.url);
    await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);
    const marks = pane(page).locator('.command-mark');

    await typeLine(page, `cd ${rig.scratch}`);
    await expect.poll(() => marks.count(), poll).toBe(1);
    // A split starts where the shell is now (its OSC 7 report).
    await page.keyboard.press('Control+Shift+D');
    await expect.poll(() => page.locator('section.pane').count(), poll).toBe(2);
    await expect.poll(() => pane(page, 1).locator('.command-mark').count(), poll).toBe(0);
    await typeLine(page, 'pwd', 1);
    await expect.poll(() => paneText(page, 1), poll).toContain(`\n${rig.scratch}\n`);
    await typeLine(page, 'seq 1 60');
    await expect.poll(() => pane(page).locator('.command-mark.command-ok').count(), poll).toBeGreaterThan(0);
    // The path is whole in the output only: the command line holds no `app.ts:3`.
    await typeLine(page, "printf '%s:3:5: error here\\n' src/app.ts; false");
    await expect.poll(() => pane(page).locator('.command-mark.command-failed').count(), poll).toBe(1);
    await expect
      .poll(() => page.getByRole('img', { name: 'last command failed (exit 1)' }).count(), poll)
      .toBe(1);

    // Back to the failed command, then to `seq`, whose prompt is then the pane's first row.
    await focusTerminal(page);
    await page.keyboard.press('Control+Shift+ArrowUp');
    await expect
      .poll(() => pane(page).locator('.command-mark.current').getAttribute('title'), poll)
      .toMatch(/^printf .* \(exit 1\)$/);
    await page.keyboard.press('Control+Shift+ArrowUp');
    await expect.poll(async () => (await paneText(page)).split('\n')[0], poll).toMatch(/seq 1 60$/);
    expect(await pane(page).locator('.command-mark.current').getAttribute('title')).toBe('seq 1 60 (exit 0)');

    // The palette copies the current command's output.
    await rig.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(rig.app.url).origin,
    });
    await page.keyboard.press('Control+Shift+P');
    await page.getByPlaceholder('Type a command').fill("copy the command's output");
    await page.keyboard.press('Enter');
    const numbers = Array.from({ length: 60 }, (_, i) => `${i + 1}\n`).join('');
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
      .toBe(numbers);
    await focusTerminal(page);

    // Back at the bottom, the printed path is a link to the editor at its line.
    await page.keyboard.press('Control+Shift+ArrowDown');
    await typeLine(page, 'clear');
    await typeLine(page, "printf '%s:3:5: error here\\n' src/app.ts");
    const row = pane(page).locator('.xterm-rows > div', { hasText: /^src\/app\.ts:3:5/ });
    await expect.poll(() => row.count(), poll).toBe(1);
    const box = (await row.boundingBox())!;
    const at = { x: box.x + 30, y: box.y + box.height / 2 };
    await page.mouse.move(at.x - 10, at.y);
    await page.mouse.move(at.x, at.y);
    await page.mouse.click(at.x, at.y);
    await expect.poll(() => page.getByRole('tab', { name: /app\.ts/ }).count(), poll).toBe(1);
    await expect.poll(() => page.locator('.cm-activeLine').textContent(), poll).toBe('the third line');
  });
});
