// A WebSocket environment behind a fault proxy, driven through the UI in Chromium: add it with the
// dialog, run a shell, cut the link (indicator and banner say reconnecting), and check that output
// produced and keystrokes typed during the cut arrive exactly once; resize follows the window; an
// exit code is shown inline. An upload dropped on the file browser rides out a cut in its middle,
// against either server.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addEnvironment, openRemoteShell } from './environment-ui';
import { remoteRig } from './remote-rig';
import { dropFile, openEmptyFolder } from './files-ui';
import { countInPane, focusTerminal, pane, paneText, typeLine } from './terminal-text';
import { saveScreenshot, reportOnFailure } from './screens';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };
/** How long the link stays cut: long enough for the loop to print several lines meanwhile. */
const CUT_MS = 3_000;

/** The bytes of the file the upload test drops: a fixed, non-repeating-looking pattern. */
function patternBytes(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + (i >> 12)) % 256;
  return bytes;
}

describe('web app: remote environment over a bad link', () => {
  const rig = remoteRig('tether');

  it('survives a cut without losing or repeating output or input, resizes, and shows the exit code', async () => {
    const { page } = rig.browser;
    reportOnFailure(page, 'remote-environment', rig.app);
    const indicator = await openRemoteShell(
      page,
      rig.app.url,
      rig.server.transportSpec(rig.proxy.url()),
      UI_TIMEOUT_MS,
    );
    await typeLine(page, 'echo hello');
    await expect.poll(() => countInPane(page, /^hello$/m), poll).toBe(1);

    // Output during the cut: a loop keeps printing while the link is down.
    await typeLine(page, 'clear; for i in 1 2 3 4 5 6 7 8 9; do echo "n=$i"; sleep 0.6; done');
    await expect.poll(() => countInPane(page, /n=1/), poll).toBe(1);
    rig.proxy.refuseNew(true);
    rig.proxy.cutAll();
    await expect.poll(() => indicator.getAttribute('aria-label'), poll).toMatch(/^Connection: reconnecting/);
    await expect
      .poll(() => pane(page).getByRole('status').first().textContent(), poll)
      .toMatch(/Link reconnecting/);
    // Typed while cut: delivered once, after the loop, when the link is back.
    await focusTerminal(page);
    await page.keyboard.type('echo typed$((20+1))');
    await page.keyboard.press('Enter');
    await saveScreenshot(page, 'reconnecting');
    await new Promise((resolve) => setTimeout(resolve, CUT_MS));
    rig.proxy.refuseNew(false);
    rig.proxy.restore();

    await expect.poll(() => indicator.getAttribute('aria-label'), poll).toMatch(/^Connection: connected/);
    await expect.poll(() => countInPane(page, /n=9/), poll).toBe(1);
    await expect.poll(() => countInPane(page, /typed21/), poll).toBe(1);
    const text = await paneText(page);
    for (let i = 1; i <= 9; i += 1) expect([...text.matchAll(new RegExp(`n=${i}\\b`, 'g'))]).toHaveLength(1);
    expect(text.indexOf('n=1')).toBeLessThan(text.indexOf('n=9'));
    expect(
      await pane(page)
        .getByText(/Link reconnecting/)
        .count(),
    ).toBe(0);

    // The terminal follows the window size.
    await typeLine(page, 'clear; echo "cols=$(tput cols)"');
    await expect.poll(() => countInPane(page, /cols=\d+/), poll).toBe(1);
    const before = Number(/cols=(\d+)/.exec(await paneText(page))?.[1]);
    await page.setViewportSize({ width: 900, height: 700 });
    await expect
      .poll(async () => {
        await typeLine(page, 'clear; echo "cols=$(tput cols)"');
        await new Promise((resolve) => setTimeout(resolve, 300));
        return Number(/cols=(\d+)/.exec(await paneText(page))?.[1]);
      }, poll)
      .toBeLessThan(before);

    await typeLine(page, 'exit 3');
    await expect
      .poll(() => pane(page).getByRole('status').filter({ hasText: 'exited with code 3' }).count(), poll)
      .toBe(1);
    expect(await countInPane(page, /\[process exited with code 3\]/)).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: 'restart' }).count(), poll).toBe(1);
    await saveScreenshot(page, 'exited');
  });

  // Tether's server continues the write in place; against codex the app replays its spool from 0.
  it.each(['tether', 'codex'] as const)(
    'finishes an upload byte-exact when the link is cut in its middle (%s server)',
    async (impl) => {
      if (impl === 'codex') {
        await rig.switchServer('codex');
      }
      await uploadAcrossCut(impl);
    },
  );

  async function uploadAcrossCut(impl: 'tether' | 'codex'): Promise<void> {
    const { page } = rig.browser;
    reportOnFailure(page, `remote-upload-${impl}`, rig.app);
    await page.goto(rig.app.url);
    const indicator = await addEnvironment(page, rig.server.transportSpec(rig.proxy.url()), UI_TIMEOUT_MS);
    const folder = path.join(rig.server.home, 'uploads');
    mkdirSync(folder);
    await openEmptyFolder(page, folder, UI_TIMEOUT_MS);

    // Slow enough that the cut lands while blocks are still going up.
    const data = patternBytes(6 * 1024 * 1024 + 333);
    rig.proxy.throttle(1_500_000, 'upstream');
    await dropFile(page, 'big.bin', data);
    const transfers = page.getByRole('region', { name: 'Transfers' });
    const row = transfers.getByRole('row', { name: 'upload big.bin' });
    const progress = transfers.getByRole('progressbar', { name: 'Progress of big.bin' });
    await expect.poll(async () => Number(await progress.getAttribute('value')), poll).toBeGreaterThan(0);
    expect(await row.textContent()).toContain('running');

    rig.proxy.refuseNew(true);
    rig.proxy.cutAll();
    await expect.poll(() => indicator.getAttribute('aria-label'), poll).toMatch(/^Connection: reconnecting/);
    await expect.poll(() => row.textContent(), poll).toContain('waiting for the link');
    await saveScreenshot(page, `upload-reconnecting-${impl}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    rig.proxy.restore();

    await expect.poll(() => row.textContent(), poll).toContain('done');
    expect(readFileSync(path.join(folder, 'big.bin')).equals(data)).toBe(true);
  }
});
