// A dev server started in a terminal of the web app, in Chromium, on a WebSocket and on an SSH
// environment: its printed URL gets its port forwarded by itself (a notice says so, with Open ·
// Preview · Ignore), the Ports panel lists it, Preview (web mode: a browser tab) opens its page
// through the local port, and the page's own WebSocket is live through the forward (a message the
// server pushes later arrives); once the server is stopped, the page's socket closes and the forward
// goes with the process that printed it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { httpGet } from '../support/forward-peers';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { REPO_ROOT } from '../support/exec-servers';
import { SshTestRig } from '../support/sshd';
import { addEnvironment, addSshEnvironment } from './environment-ui';
import { remoteRig } from './remote-rig';
import { pane, typeLine } from './terminal-text';
import { reportOnFailure, reportIfFailed } from './screens';
import { startWebApp, type WebApp } from './web-app';

const UI_TIMEOUT_MS = 30_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };

/**
 * A dev server as Vite's looks from outside: it prints its Local URL, serves a page that opens a
 * WebSocket back to it (answered `pong` to its `ping`), and pushes `update N` to every open socket
 * when asked on /push, as a hot-reload server does when a file changes.
 */
const DEV_SERVER = `
const http = require('node:http');
const { WebSocketServer } = require(${JSON.stringify(path.join(REPO_ROOT, 'node_modules', 'ws'))});
const page = \`<!doctype html><title>dev page</title><p id="socket">connecting</p><p id="pushed"></p>
<script>
const ws = new WebSocket('ws://' + location.host + '/hmr');
const show = (id, text) => (document.getElementById(id).textContent = text);
ws.onopen = () => ws.send('ping');
ws.onmessage = (e) => show(e.data === 'pong' ? 'socket' : 'pushed', e.data);
ws.onclose = () => show('socket', 'closed');
</script>\`;
let pushes = 0;
const wss = new WebSocketServer({ noServer: true });
wss.on('connection', (socket) => socket.on('message', (m) => String(m) === 'ping' && socket.send('pong')));
const s = http.createServer((req, res) => {
  if (req.url === '/push') {
    pushes += 1;
    for (const c of wss.clients) c.send('update ' + pushes);
    return res.end(String(wss.clients.size));
  }
  res.setHeader('content-type', 'text/html');
  res.end(page);
});
s.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (c) => wss.emit('connection', c)));
s.listen(0, '127.0.0.1', () => console.log('  Local:   http://localhost:' + s.address().port + '/'));
`;

/** Writes the dev server's script into a temp folder (removed after the test); its path. */
function devServerScript(): string {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'tether-e2e-ports-'));
  onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
  const script = path.join(scratch, 'dev.js');
  writeFileSync(script, DEV_SERVER);
  return script;
}

/**
 * From a connected environment's first shell: start the dev server (`exec`, so the pane's process
 * is the server and ends with it), preview it, check its page and live socket, stop it.
 */
async function devServerFlow(page: Page, context: BrowserContext): Promise<void> {
  await typeLine(page, `exec '${process.execPath}' '${devServerScript()}'`);

  const notice = page.getByRole('status', { name: 'Forwarded ports' });
  await expect.poll(() => notice.textContent(), poll).toMatch(/Port \d+.* → localhost:\d+OpenPreviewIgnore/);
  const tab = context.waitForEvent('page', { timeout: UI_TIMEOUT_MS });
  await notice.getByRole('button', { name: 'Preview' }).click();
  const opened = await tab;
  onTestFinished(() => opened.close().catch(() => undefined));
  await opened.waitForLoadState();
  expect(await opened.title()).toBe('dev page');
  const boundPort = Number(new URL(opened.url()).port);
  expect(opened.url()).toBe(`http://localhost:${boundPort}/`);
  const socket = opened.locator('#socket');
  await expect.poll(() => socket.textContent(), poll).toBe('pong');

  await page.getByRole('tab', { name: 'Ports' }).click();
  const row = page.getByRole('row', { name: /^Forward of port \d+$/ });
  await expect.poll(() => row.count(), poll).toBe(1);
  expect(await row.getByRole('cell').nth(1).textContent()).toContain(`127.0.0.1:${boundPort}`);
  expect(await row.getByRole('cell').nth(2).textContent()).toBe('forwarding');
  // Printed URL, unless (rarely) a socket scan saw its listen() before the URL came.
  expect(await row.getByRole('cell').nth(4).textContent()).toMatch(/^(printed URL|listening socket)$/);
  expect(await row.getByRole('cell').nth(5).textContent()).toContain('(auto)');

  // The server pushes once the page is up (a file changed): the page's socket carries it, live.
  expect(await httpGet(boundPort, '/push')).toBe('1');
  await expect.poll(() => opened.locator('#pushed').textContent(), poll).toBe('update 1');

  // Stopped: its socket through the forward closes, and the auto forward goes with its process.
  await page.getByRole('tab', { name: 'Terminals' }).click();
  await pane(page).click();
  await page.keyboard.press('Control+C');
  await expect.poll(() => socket.textContent(), poll).toBe('closed');
  await page.getByRole('tab', { name: 'Ports' }).click();
  await expect.poll(() => row.count(), poll).toBe(0);
  expect(await httpGet(boundPort)).toBe('ECONNREFUSED');
}

describe('web app: ports', () => {
  // A remote environment: Local's printed ports are not forwarded, they already work here. (The
  // server runs on this machine, so the dev server's port is taken and the forward is remapped.)
  const rig = remoteRig('tether');

  it('forwards the port a dev server in a pane prints, previews its page and its live socket', async () => {
    const { page, context } = rig.browser;
    reportOnFailure(page, 'ports', rig.app);
    await page.goto(rig.app.url);
    await addEnvironment(page, rig.server.transportSpec(rig.proxy.url()), UI_TIMEOUT_MS);
    await devServerFlow(page, context);
  });
});

describe('web app: ports on an SSH environment', () => {
  let ssh: SshTestRig;
  let app: WebApp;
  let browser: LaunchedBrowser;
  beforeEach(async () => {
    ssh = new SshTestRig();
    await ssh.startHost({ alias: 'lab-ssh' });
    app = await startWebApp({ homeFiles: { '.ssh/config': readFileSync(ssh.configFile, 'utf8') } });
    browser = await launchBrowser({ disableWebgl: true });
  });
  afterEach(async (ctx) => {
    await reportIfFailed(ctx);
    await browser?.close();
    await app?.stop();
    await ssh?.close();
  });

  it('forwards through the host daemon what a dev server there prints, page and socket', async () => {
    const { page, context } = browser;
    reportOnFailure(page, 'ports-ssh', app);
    await page.goto(app.url);
    await addSshEnvironment(page, 'lab-ssh', UI_TIMEOUT_MS);
    await devServerFlow(page, context);
  });
});
