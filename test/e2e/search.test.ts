// Quick open and Find in files in Chromium, against Tether's server behind a fault proxy, with the
// host's real rg: Ctrl+P and a fuzzy name opens that file in the editor; a search for a word lists
// it by file and line (a hostile file name shown as text, never as markup), and a click on a result
// opens the editor with its cursor on that line, scrolled into view.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addEnvironment } from './environment-ui';
import { seriousAxeViolations } from './page-audit';
import { remoteRig } from './remote-rig';
import { saveScreenshot, reportOnFailure } from './screens';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };
const HOSTILE = '<img src=x onerror=alert(1)>.txt';

describe('web app: Quick open and Find in files', () => {
  const rig = remoteRig('tether');

  it('Ctrl+P opens a file by a fuzzy name; a search result opens the editor at its line', async () => {
    const { page } = rig.browser;
    reportOnFailure(page, 'search', rig.app);
    const folder = path.join(rig.server.home, 'project');
    mkdirSync(path.join(folder, 'src', 'server'), { recursive: true });
    mkdirSync(path.join(folder, 'notes'));
    writeFileSync(path.join(folder, 'src', 'server', 'server-main.ts'), 'export const main = 42;\n');
    writeFileSync(path.join(folder, 'src', 'server', 'side.ts'), 'export const side = 1;\n');
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i + 1}`);
    lines[249] = 'line 250 has the quokka in it';
    writeFileSync(path.join(folder, 'notes', 'long.txt'), `${lines.join('\n')}\n`);
    writeFileSync(path.join(folder, HOSTILE), 'a quokka with a strange name\n');

    await page.goto(rig.app.url);
    await addEnvironment(page, rig.server.transportSpec(rig.proxy.url()), UI_TIMEOUT_MS);
    // The workspace is the Files view's folder.
    await page.getByRole('tab', { name: 'Files' }).click();
    const pathBar = page.getByRole('textbox', { name: 'Path' });
    await expect.poll(() => pathBar.inputValue(), poll).not.toBe('');
    await pathBar.fill(folder);
    await pathBar.press('Enter');
    await expect.poll(() => page.getByRole('row', { name: /notes/ }).count(), poll).toBeGreaterThan(0);

    await page.keyboard.press('Control+p');
    const quickOpen = page.getByRole('combobox', { name: 'Quick open' });
    await quickOpen.pressSequentially('srvmain');
    const best = page.getByRole('option').first();
    await expect.poll(() => best.textContent(), poll).toContain('server-main.ts');
    // The matched characters are marked.
    expect(await best.locator('mark').allTextContents()).toEqual(expect.arrayContaining(['s', 'main']));
    await saveScreenshot(page, 'quick-open');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('tab', { name: /server-main\.ts/ }).count(), poll).toBe(1);
    const content = page.getByRole('textbox', { name: 'File contents' });
    await expect.poll(() => content.textContent(), poll).toContain('export const main = 42;');

    await page.keyboard.press('Control+Shift+H');
    const query = page.getByRole('searchbox', { name: 'Find in files' });
    await expect.poll(() => query.evaluate((el) => el === document.activeElement), poll).toBe(true);
    await query.fill('quokka');
    await query.press('Enter');
    const results = page.getByRole('list', { name: 'Search results' });
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'matches' }).textContent(), poll)
      .toContain('2 matches in 2 files');
    // The hostile name is text: no image was made of it.
    expect(await results.textContent()).toContain(HOSTILE);
    expect(await results.locator('img').count()).toBe(0);
    expect(await results.locator('mark').allTextContents()).toEqual(['quokka', 'quokka']);
    await saveScreenshot(page, 'find-in-files');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await results.getByRole('button', { name: 'Line 250 line 250 has the quokka in it' }).click();
    await expect.poll(() => page.getByRole('tab', { name: /long\.txt/ }).count(), poll).toBe(1);
    // The cursor is on line 250 (the active line) and the editor scrolled to show it.
    const active = page.locator('.cm-activeLine');
    const showsLine250 = async () => {
      await expect.poll(() => active.textContent(), poll).toBe('line 250 has the quokka in it');
      // Inside the editor's scroller and the window alike, whichever of them scrolls.
      const scroller = await page.locator('.cm-scroller').boundingBox();
      const line = await active.boundingBox();
      const window = page.viewportSize();
      const inside = (box: { y: number; height: number }, top: number, height: number) =>
        box.y >= top && box.y + box.height <= top + height;
      expect(line && scroller && inside(line, scroller.y, scroller.height)).toBe(true);
      expect(line && window && inside(line, 0, window.height)).toBe(true);
    };
    await showsLine250();

    // Again with the file's tab open behind another: its editor opens anew, scrolled to the line.
    await page.keyboard.press('Control+Home');
    await expect.poll(() => active.textContent(), poll).toBe('line 1');
    await page.getByRole('tab', { name: /server-main\.ts/ }).click();
    await expect.poll(() => content.textContent(), poll).toContain('export const main = 42;');
    await page.keyboard.press('Control+Shift+H');
    await results.getByRole('button', { name: 'Line 250 line 250 has the quokka in it' }).click();
    await showsLine250();
  });
});
