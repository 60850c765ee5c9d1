// Editing a remote file in Chromium, against Tether's server behind a fault proxy: open it from the
// file browser (into an editor tab of the main area), type, Ctrl+S, and the file on the server's disk changes (its CRLF kept); a change
// made on disk behind the editor makes the next save show the conflict with both versions, and
// *Overwrite with mine* writes mine; a save while the link is cut goes through once it is back.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addEnvironment } from './environment-ui';
import { seriousAxeViolations } from './page-audit';
import { remoteRig } from './remote-rig';
import { saveScreenshot, reportOnFailure } from './screens';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };

describe('web app: the editor', () => {
  const rig = remoteRig('tether');

  it('saves with Ctrl+S, shows a conflict with the file changed on disk, and saves across a cut', async () => {
    const { page } = rig.browser;
    reportOnFailure(page, 'editor', rig.app);
    const folder = path.join(rig.server.home, 'project');
    const file = path.join(folder, 'notes.md');
    mkdirSync(folder);
    writeFileSync(file, '# Notes\r\nfirst line\r\n');
    const onDisk = () => readFileSync(file, 'utf8');

    await page.goto(rig.app.url);
    const indicator = await addEnvironment(page, rig.server.transportSpec(rig.proxy.url()), UI_TIMEOUT_MS);
    await page.getByRole('tab', { name: 'Files' }).click();
    const pathBar = page.getByRole('textbox', { name: 'Path' });
    await expect.poll(() => pathBar.inputValue(), poll).not.toBe('');
    await pathBar.fill(folder);
    await pathBar.press('Enter');
    const row = page.getByRole('table', { name: 'Folder contents' }).getByRole('row', { name: /notes\.md/ });
    await row.getByText('notes.md').dblclick();

    const tab = page.getByRole('tab', { name: /notes\.md/ });
    await expect.poll(() => tab.count(), poll).toBe(1);
    const content = page.getByRole('textbox', { name: 'File contents' });
    await expect.poll(() => content.textContent(), poll).toContain('first line');
    await content.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('second line');
    await expect.poll(() => tab.getByLabel('unsaved changes').count(), poll).toBe(1);
    await page.keyboard.press('Control+s');
    await expect.poll(onDisk, poll).toBe('# Notes\r\nfirst line\r\nsecond line');
    await expect.poll(() => tab.getByLabel('unsaved changes').count(), poll).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // Someone changes the file behind the editor; the next save must not write over it.
    writeFileSync(file, '# Notes\r\nfirst line, edited elsewhere\r\n');
    await page.keyboard.type('!');
    await page.keyboard.press('Control+s');
    const conflict = page.getByRole('region', { name: /notes\.md changed on the server/ });
    await expect.poll(() => conflict.count(), poll).toBe(1);
    const diff = conflict.getByRole('table', { name: /Differences/ });
    await expect.poll(() => diff.textContent(), poll).toContain('− first line, edited elsewhere');
    expect(await diff.textContent()).toContain('+ second line!');
    expect(onDisk()).toBe('# Notes\r\nfirst line, edited elsewhere\r\n');
    // Both schemes: the editor and the diff take their colours from the app's palette.
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await saveScreenshot(page, `editor-conflict-${colorScheme}`);
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
    await conflict.getByRole('button', { name: 'Overwrite with mine' }).click();
    await expect.poll(onDisk, poll).toBe('# Notes\r\nfirst line\r\nsecond line!');
    await expect.poll(() => conflict.count(), poll).toBe(0);

    // The link drops: the edit stays in the editor, the save waits and lands once it is back.
    rig.proxy.refuseNew(true);
    rig.proxy.cutAll();
    await expect.poll(() => indicator.getAttribute('aria-label'), poll).toMatch(/^Connection: reconnecting/);
    await content.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' typed offline');
    await page.keyboard.press('Control+s');
    await expect
      .poll(() => page.getByRole('tabpanel').getByRole('status').textContent(), poll)
      .toMatch(/link is down|link is back/);
    expect(onDisk()).toBe('# Notes\r\nfirst line\r\nsecond line!');
    rig.proxy.refuseNew(false);
    rig.proxy.restore();
    await expect.poll(onDisk, poll).toBe('# Notes\r\nfirst line\r\nsecond line! typed offline');
    await expect.poll(() => tab.getByLabel('unsaved changes').count(), poll).toBe(0);
  });
});
