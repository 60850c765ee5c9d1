// The Local environment with no setup, through the UI in Chromium: a shell ready on first launch,
// the file browser (drag-and-drop upload, preview, byte-identical download), the other panels, and a
// page reload that restores the pane and its scrollback without duplicates.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { localRig } from './local-rig';
import { dropFile, openEmptyFolder } from './files-ui';
import { countInPane, pane, paneText, typeLine } from './terminal-text';
import { saveScreenshot, reportOnFailure } from './screens';

/** Generous bound for UI conditions on a shared, loaded machine. */
const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };

describe('web app: Local environment', () => {
  const rig = localRig('tether-e2e-files-');

  it('opens a ready shell, moves files both ways, splits, and restores panes after a reload', async () => {
    const { app, browser, scratch } = rig;
    const { page } = browser;
    reportOnFailure(page, 'local-environment', app);
    await page.goto(app.url);

    await expect
      .poll(() => page.getByRole('img', { name: /^Connection: connected/ }).count(), poll)
      .toBeGreaterThan(0);
    await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);
    await typeLine(page, 'echo hello-$((40+2))');
    await expect.poll(() => countInPane(page, /hello-42/), poll).toBe(1);
    await saveScreenshot(page, 'terminal');

    // Files: go to a scratch folder, drop a file on the list, preview it, download it back.
    await openEmptyFolder(page, scratch, UI_TIMEOUT_MS);
    const content = Array.from({ length: 3000 }, (_, i) => `line ${i} of the dropped file\n`).join('');
    await dropFile(page, 'dropped.txt', Buffer.from(content));
    const transfers = page.getByRole('region', { name: 'Transfers' });
    await expect
      .poll(() => transfers.getByRole('row', { name: 'upload dropped.txt' }).textContent(), poll)
      .toContain('done');
    await expect
      .poll(() => readFileSync(path.join(scratch, 'dropped.txt'), 'utf8').length, poll)
      .toBe(content.length);
    expect(readFileSync(path.join(scratch, 'dropped.txt'), 'utf8')).toBe(content);

    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('button', { name: 'dropped.txt', exact: true }).click();
    const preview = page.getByRole('complementary', { name: 'Preview of dropped.txt' });
    await expect.poll(() => preview.textContent(), poll).toContain('line 0 of the dropped file');

    const binary = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7 + 3) % 256));
    writeFileSync(path.join(scratch, 'blob.bin'), binary);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const downloaded = page.waitForEvent('download', { timeout: UI_TIMEOUT_MS });
    await page.getByRole('button', { name: 'Download blob.bin' }).click();
    const download = await downloaded;
    const saved = path.join(scratch, 'downloaded.bin');
    await download.saveAs(saved);
    expect(readFileSync(saved).equals(binary)).toBe(true);
    await saveScreenshot(page, 'files');

    await page.getByRole('tab', { name: 'Processes' }).click();
    await expect.poll(() => page.getByRole('row', { name: /^Process / }).count(), poll).toBeGreaterThan(0);
    await saveScreenshot(page, 'processes');
    await page.getByRole('tab', { name: 'Health' }).click();
    await expect.poll(() => page.getByRole('img', { name: /^RTT over the last/ }).count(), poll).toBe(1);
    const serverInfo = page.getByRole('region', { name: 'Server' });
    await expect
      .poll(() => serverInfo.getByRole('row', { name: /^Capabilities/ }).textContent(), poll)
      .toContain('tetherProcessResize');
    expect(await serverInfo.getByRole('row', { name: /^Shell/ }).textContent()).toMatch(/\//);
    await saveScreenshot(page, 'health');

    // Reload: the same pane comes back on the same process, with its scrollback, once.
    // Back on the terminal (its view was detached meanwhile): it still shows and takes input.
    await page.getByRole('tab', { name: 'Terminals' }).click();
    await typeLine(page, 'echo back-$((5+5))');
    await expect.poll(() => countInPane(page, /^back-10$/m), poll).toBe(1);
    expect(await countInPane(page, /^hello-42$/m)).toBe(1);
    await page.reload();
    await expect.poll(() => countInPane(page, /hello-42/), poll).toBe(1);
    await typeLine(page, 'echo again-$((1+1))');
    await expect.poll(() => countInPane(page, /again-2/), poll).toBe(1);
    expect(await countInPane(page, /hello-42/)).toBe(1);
    expect(await page.locator('section.pane').count()).toBe(1);
    expect(await paneText(page)).not.toContain('could not replay');

    // A flood of output never holds back input: Ctrl-C stops it and the shell answers again.
    await typeLine(page, 'yes flood-line');
    await expect.poll(() => countInPane(page, /flood-line/), poll).toBeGreaterThan(5);
    await page.keyboard.press('Control+C');
    await typeLine(page, 'clear; echo after-$((2+3))');
    await expect.poll(() => countInPane(page, /^after-5$/m), poll).toBe(1);

    // A split pane runs its own shell, and the split layout survives a reload too.
    await pane(page).getByRole('button', { name: 'Split right' }).click();
    await expect.poll(() => page.locator('section.pane .xterm-rows').count(), poll).toBe(2);
    await expect.poll(async () => (await paneText(page, 1)).trim().length, poll).toBeGreaterThan(0);
    await typeLine(page, 'echo right-$((3+4))', 1);
    await expect.poll(() => countInPane(page, /^right-7$/m, 1), poll).toBe(1);
    await saveScreenshot(page, 'split');
    // The handle between the two panes resizes them.
    const handle = page.getByRole('separator', { name: 'Resize panes' });
    const widthBefore = (await pane(page, 0).boundingBox())!.width;
    const grip = (await handle.boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x - 150, grip.y + grip.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect
      .poll(async () => (await pane(page, 0).boundingBox())!.width, poll)
      .toBeLessThan(widthBefore - 100);
    await page.reload();
    await expect.poll(() => countInPane(page, /^right-7$/m, 1), poll).toBe(1);
    await expect.poll(() => countInPane(page, /^after-5$/m, 0), poll).toBe(1);
  });
});
