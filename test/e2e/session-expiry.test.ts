// A session that expires during an outage, as the user sees it in Chromium: while reconnecting, the
// status says until when the server holds the session; once the network is back (the window
// regaining focus triggers the attempt) the environment shows when the session expired, the shell
// that ended with it — its pane keeping its output — and "Start a new session", which connects anew.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pidAlive } from '../support/pids';
import { openRemoteShell } from './environment-ui';
import { remoteRig } from './remote-rig';
import { saveScreenshot, reportOnFailure } from './screens';
import { countInPane, typeLine } from './terminal-text';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };
const SESSION_TTL_MS = 2_000;

describe('web app: a session that expires during an outage', () => {
  const rig = remoteRig('tether', { serverArgs: ['--session-ttl-ms', String(SESSION_TTL_MS)] });

  it('says until when it is held, then when it expired and what ended with it, and starts anew', async () => {
    const { page } = rig.browser;
    reportOnFailure(page, 'session-expiry', rig.app);
    const indicator = await openRemoteShell(
      page,
      rig.app.url,
      rig.server.transportSpec(rig.proxy.url()),
      UI_TIMEOUT_MS,
    );
    const pidFile = path.join(rig.server.home, 'shell-pid');
    await typeLine(page, `echo $$ > ${pidFile}; echo started-$((1+1))`);
    await expect.poll(() => countInPane(page, /^started-2$/m), poll).toBe(1);
    const shellPid = Number(readFileSync(pidFile, 'utf8'));

    rig.proxy.refuseNew(true);
    rig.proxy.cutAll();
    await expect
      .poll(() => indicator.getAttribute('aria-label'), poll)
      .toMatch(/^Connection: reconnecting.* · session held until \d\d:\d\d$/);
    // The server ends the session (and the shell) once nobody resumed it within its lifetime.
    await expect.poll(() => pidAlive(shellPid), poll).toBe(false);
    rig.proxy.refuseNew(false);
    rig.proxy.restore();
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));

    const expired = page.getByRole('region', { name: 'Session expired' });
    await expect.poll(() => expired.isVisible(), poll).toBe(true);
    expect(await indicator.getAttribute('aria-label')).toMatch(/^Connection: session expired at \d\d:\d\d$/);
    expect(await expired.textContent()).toMatch(/Session expired at \d\d:\d\d\..*this process ended with it/);
    const ended = expired.getByRole('list', { name: 'Processes that ended with the session' });
    expect(await ended.getByRole('listitem').count()).toBe(1);
    expect(await countInPane(page, /^started-2$/m), 'the pane keeps its output').toBe(1);
    await saveScreenshot(page, 'session-expired');

    await expired.getByRole('button', { name: 'Start a new session' }).click();
    await expect.poll(() => indicator.getAttribute('aria-label'), poll).toMatch(/^Connection: connected/);
    expect(await expired.count()).toBe(0);
  });
});
