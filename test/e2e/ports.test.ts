// A dev server started in a terminal of the web app, in Chromium: its printed URL gets its port
// forwarded by itself (a notice says so), the Ports panel lists it, its page comes back through the
// local port, and Open in browser opens that page in a new tab; once the server is stopped, the
// forward goes (its port no longer listens on the host).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFailed, onTestFinished } from 'vitest';
import { addEnvironment } from './environment-ui';
import { remoteRig } from './remote-rig';
import { pane, typeLine } from './terminal-text';
import { reportFailure } from './screens';

const UI_TIMEOUT_MS = 15_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };

const DEV_SERVER = `
const http = require('node:http');
const s = http.createServer((req, res) => res.end('<title>dev page</title>from the dev server'));
s.listen(0, '127.0.0.1', () => console.log('  Local:   http://localhost:' + s.address().port + '/'));
`;

/** GET / on the loopback port; the body, or the error's code. */
function get(port: number): Promise<string> {
  return new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: '/' }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body));
      })
      .on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

describe('web app: ports', () => {
  // A remote environment: Local's printed ports are not forwarded, they already work here. (The
  // server runs on this machine, so the dev server's port is taken and the forward is remapped.)
  const rig = remoteRig('tether');

  it('forwards the port a dev server in a pane prints, and serves its page through it', async () => {
    const { page, context } = rig.browser;
    onTestFailed(() => reportFailure(page, 'ports', rig.app));
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'tether-e2e-ports-'));
    onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    const script = path.join(scratch, 'dev.js');
    writeFileSync(script, DEV_SERVER);
    await page.goto(rig.app.url);
    await addEnvironment(page, rig.server.transportSpec(rig.proxy.url()), UI_TIMEOUT_MS);
    await typeLine(page, `'${process.execPath}' '${script}'`);

    const notice = page.getByRole('status', { name: 'Forwarded ports' });
    await expect.poll(() => notice.textContent(), poll).toMatch(/Port \d+ (\(.+\) )?→ localhost:\d+/);
    await page.getByRole('tab', { name: 'Ports' }).click();
    const row = page.getByRole('row', { name: /^Forward of port \d+$/ });
    await expect.poll(() => row.count(), poll).toBe(1);
    const local = (await row.getByRole('cell').nth(1).textContent()) ?? '';
    const boundPort = Number(/127\.0\.0\.1:(\d+)/.exec(local)?.[1]);
    expect(boundPort).toBeGreaterThan(0);
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('forwarding');
    // Printed URL, unless (rarely) a socket scan saw its listen() before the URL came.
    expect(await row.getByRole('cell').nth(4).textContent()).toMatch(/^(printed URL|listening socket)$/);
    expect(await row.getByRole('cell').nth(5).textContent()).toContain('(auto)');
    expect(await get(boundPort)).toContain('from the dev server');

    const tab = context.waitForEvent('page', { timeout: UI_TIMEOUT_MS });
    await row.getByRole('button', { name: /^Open in browser port \d+$/ }).click();
    const opened = await tab;
    await opened.waitForLoadState();
    expect(opened.url()).toBe(`http://localhost:${boundPort}/`);
    expect(await opened.title()).toBe('dev page');
    await opened.close();

    // The server stops (the shell that printed the URL runs on): its port stops listening on the
    // host, and the forward goes with it.
    await page.getByRole('tab', { name: 'Terminals' }).click();
    await pane(page).click();
    await page.keyboard.press('Control+C');
    await page.getByRole('tab', { name: 'Ports' }).click();
    await expect.poll(() => row.count(), poll).toBe(0);
    expect(await get(boundPort)).toBe('ECONNREFUSED');
  });
});
