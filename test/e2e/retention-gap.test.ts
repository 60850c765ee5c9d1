// Output lost beyond the server's retention, as the user sees it: codex (no flow control, 1 MiB
// retained per process) keeps reading a shell's flood while the link is cut, so part of it is gone
// for good. The pane shows one gap marker naming the seqs the app reports lost, then the output
// that followed, keeps taking input, and shows the marker once again after a reload. (Against
// Tether's server the app's output window stays within the retention, so a cut cannot cause a gap.)
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WEB_TOKEN_PARAM, webSocketUrlFor, type ProcessEventView } from '../../shared/ipc';
import { createWebSocketBridge, type WebSocketLike } from '../../shared/ipc/web-bridge-client';
import { openRemoteShell } from './environment-ui';
import { remoteRig } from './remote-rig';
import { saveScreenshot, reportOnFailure } from './screens';
import { countInPane, pane, paneText, typeLine } from './terminal-text';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };
/** Three times what codex retains per process, so most of it cannot be read back. */
const FLOOD_BYTES = 3 * 1_048_576;

type GapEvent = Extract<ProcessEventView, { kind: 'gap' }>;

/** The gaps the app itself holds for the one process of "Lab box", asked over its own WebSocket. */
async function gapsTheAppReports(appUrl: string): Promise<GapEvent[]> {
  const page = new URL(appUrl);
  const authorization = `Bearer ${page.searchParams.get(WEB_TOKEN_PARAM)}`;
  const bridge = createWebSocketBridge(
    webSocketUrlFor(page),
    (url) => new WebSocket(url, { headers: { authorization } }) as unknown as WebSocketLike,
  );
  try {
    const env = (await bridge.invoke('environments.list', {})).find((e) => e.name === 'Lab box')!;
    const [shell] = await bridge.invoke('processes.list', { envId: env.id });
    const { events } = await bridge.invoke('processes.replay', {
      envId: env.id,
      processId: shell!.processId,
      afterSeq: 0,
    });
    return events.filter((e): e is GapEvent => e.kind === 'gap');
  } finally {
    bridge.close();
  }
}

describe('web app: output beyond the server’s retention during a cut', () => {
  const rig = remoteRig('codex');

  it('shows a gap marker with the seqs the app reports lost, then the output after it', async () => {
    const { page } = rig.browser;
    reportOnFailure(page, 'retention-gap', rig.app);
    const indicator = await openRemoteShell(
      page,
      rig.app.url,
      rig.server.transportSpec(rig.proxy.url()),
      UI_TIMEOUT_MS,
    );

    // The flood waits for the cut (the test creates `go` once the link is down). It is NUL bytes,
    // which a terminal does not display, so the marker and what follows it stay on screen.
    const go = path.join(rig.server.home, 'go');
    const flooded = path.join(rig.server.home, 'flooded');
    await typeLine(
      page,
      `clear; echo before-$((1+1)); while [ ! -e ${go} ]; do sleep 0.1; done; ` +
        `head -c ${FLOOD_BYTES} /dev/zero; touch ${flooded}; echo after-$((40+2))`,
    );
    await expect.poll(() => countInPane(page, /^before-2$/m), poll).toBe(1);

    rig.proxy.refuseNew(true);
    rig.proxy.cutAll();
    await expect.poll(() => indicator.getAttribute('aria-label'), poll).toMatch(/^Connection: reconnecting/);
    writeFileSync(go, '');
    // The whole flood has been read by the server (and mostly evicted) before the link returns.
    await expect.poll(() => existsSync(flooded), poll).toBe(true);
    rig.proxy.refuseNew(false);
    rig.proxy.restore();
    await expect.poll(() => indicator.getAttribute('aria-label'), poll).toMatch(/^Connection: connected/);

    await expect.poll(() => countInPane(page, /^after-42$/m), poll).toBe(1);
    await expect.poll(() => countInPane(page, /output lost/), poll).toBe(1);
    const gaps = await gapsTheAppReports(rig.app.url);
    expect(gaps).toHaveLength(1);
    const { fromSeq, toSeq } = gaps[0]!;
    expect(toSeq).toBeGreaterThan(fromSeq);
    const marker = `output lost: seqs ${fromSeq}–${toSeq} (server no longer held it)`;
    const text = await paneText(page);
    expect(text).toContain(marker);
    // In order: what came before the cut, the marker, what the shell printed after the flood.
    expect(text.indexOf('before-2')).toBeLessThan(text.indexOf(marker));
    expect(text.indexOf(marker)).toBeLessThan(text.indexOf('after-42'));
    await saveScreenshot(page, 'retention-gap');

    // Live output continues after the gap, and a reload shows the same marker, once.
    await typeLine(page, 'echo still-$((6*7+1))');
    await expect.poll(() => countInPane(page, /^still-43$/m), poll).toBe(1);
    await page.reload();
    // A reloaded app opens on the first environment; back to Lab box, as a user would.
    await page.getByRole('button', { name: 'Environment Lab box' }).click();
    await expect.poll(() => countInPane(page, /^still-43$/m), poll).toBe(1);
    expect(await countInPane(page, /output lost/)).toBe(1);
    expect(await paneText(page)).toContain(marker);

    // Codex cannot resize a pty: the pane says "size fixed" while its shell runs, not once it ended.
    const header = pane(page).locator('.pane-header');
    await expect.poll(() => header.getByText('size fixed').count(), poll).toBe(1);
    await typeLine(page, 'exit');
    await expect.poll(() => header.getByText('exited', { exact: true }).count(), poll).toBe(1);
    expect(await header.getByText('size fixed').count()).toBe(0);
  });
});
