// Terminal profiles and split folders in Chromium against a real Local shell: a profile set in
// Local's dialog (a variable, a start command, a folder) shapes the next new terminal, and a split
// of a pane whose shell reported its folder (OSC 7) after a `cd` starts in that folder.
import { describe, expect, it } from 'vitest';
import { localRig } from './local-rig';
import { saveScreenshot, reportOnFailure } from './screens';
import { countInPane, pane, paneText, typeLine } from './terminal-text';

const UI_TIMEOUT_MS = 60_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };

describe('web app: terminal profiles', () => {
  const rig = localRig('tether-e2e-profile-');

  it('starts a new terminal as Local’s profile says, and a split in the folder its pane reported', async () => {
    const { app, browser, scratch } = rig;
    const { page } = browser;
    reportOnFailure(page, 'terminal-profile', app);
    await page.goto(app.url);
    await expect.poll(() => pane(page).locator('.xterm-rows').count(), poll).toBe(1);

    await page.getByRole('button', { name: 'Environment Local' }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Edit…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Local' });
    await dialog.getByLabel('Start in').fill(scratch);
    await dialog.getByLabel('Variables').fill('GREETING=hello profile');
    await dialog.getByLabel('Start commands').fill('export SEEN="started-$GREETING"');
    await saveScreenshot(page, 'terminal-profile-dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.count(), poll).toBe(0);

    await page.getByRole('button', { name: 'New terminal' }).first().click();
    const tabs = page.getByRole('tablist', { name: 'Terminal tabs' }).getByRole('tab');
    await expect.poll(() => tabs.count(), poll).toBe(2);
    await expect.poll(async () => (await paneText(page)).trim().length, poll).toBeGreaterThan(0);
    await typeLine(page, 'echo "var=$GREETING seen=$SEEN"; echo "cwd=$(pwd)"');
    await expect
      .poll(() => countInPane(page, /^var=hello profile seen=started-hello profile$/m), poll)
      .toBe(1);
    await expect.poll(() => countInPane(page, new RegExp(`^cwd=${scratch}$`, 'm')), poll).toBe(1);
    // The start command ran before the first prompt: nothing of it was typed into the terminal.
    expect(await paneText(page)).not.toContain('export SEEN');

    // The shell reports its folder after the cd (as shells set up for OSC 7 do at each prompt).
    // The split waits for the line printed after the report: a click before the report reached the
    // pane would rightly start in the profile's folder.
    await typeLine(
      page,
      `cd /tmp && printf '\\033]7;file://%s%s\\007' "$HOSTNAME" "$PWD"; echo "reported-$PWD"`,
    );
    await expect.poll(() => countInPane(page, /^reported-\/tmp$/m), poll).toBe(1);
    await page.getByRole('button', { name: 'Split right' }).first().click();
    await expect.poll(() => page.locator('section.pane').count(), poll).toBe(2);
    await expect.poll(async () => (await paneText(page, 1)).trim().length, poll).toBeGreaterThan(0);
    await typeLine(page, 'echo "split-cwd=$(pwd) var=$GREETING"', 1);
    await expect.poll(() => countInPane(page, /^split-cwd=\/tmp var=hello profile$/m, 1), poll).toBe(1);
    await saveScreenshot(page, 'terminal-profile-split');
  });
});
