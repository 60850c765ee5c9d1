// The workspace in Chromium, against Tether's server over WebSocket and on an SSH environment: open a folder as the workspace (the tree is
// rooted there, and it is still the workspace after a reload), create a file and a folder, duplicate
// a file and drag it into the folder, cut and paste another, see a file made on disk behind the app
// show up, then open a file in an editor tab of the main area, edit it, save, and find it on disk.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { SshTestRig, type SshdHost } from '../support/sshd';
import { addEnvironment, addSshEnvironment } from './environment-ui';
import { remoteRig } from './remote-rig';
import { saveScreenshot, reportOnFailure, reportIfFailed } from './screens';
import { startWebApp, type WebApp } from './web-app';

const UI_TIMEOUT_MS = 60_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };

/**
 * The whole workspace flow in the environment `envName`, whose server's files are this machine's
 * under `home` (a folder `project` is made there); the environment is connected and selected.
 */
async function workspaceFlow(page: Page, home: string, envName: string, shots: string): Promise<void> {
  const folder = path.join(home, 'project');
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'readme.txt'), 'read me\n');
  const at = (...names: string[]) => path.join(folder, ...names);

  await page.getByRole('tab', { name: 'Files' }).click();
  await expect.poll(() => page.getByRole('textbox', { name: 'Path' }).inputValue(), poll).not.toBe('');

  await page.getByRole('button', { name: 'Open folder…' }).click();
  await page.getByRole('textbox', { name: 'Folder' }).fill(folder);
  await page.getByRole('textbox', { name: 'Folder' }).press('Enter');
  const table = page.getByRole('table', { name: 'Folder contents' });
  const row = (name: string) =>
    table.getByRole('row', { name: new RegExp(`^${name.replace(/[().]/g, '\\$&')}`) });
  const tree = page.getByRole('navigation', { name: 'Folder tree' });
  await expect.poll(() => row('readme.txt').count(), poll).toBe(1);
  await expect.poll(() => tree.getByRole('button', { name: 'project', exact: true }).count(), poll).toBe(1);
  expect(await tree.getByRole('button', { name: '/', exact: true }).count()).toBe(0);

  await page.getByRole('button', { name: 'New file' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('hello.txt');
  await page.getByRole('textbox', { name: 'Name' }).press('Enter');
  await expect.poll(() => row('hello.txt').count(), poll).toBe(1);
  expect(readFileSync(at('hello.txt'), 'utf8')).toBe('');
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('docs');
  await page.getByRole('textbox', { name: 'Name' }).press('Enter');
  await expect.poll(() => row('docs').count(), poll).toBe(1);

  // Duplicate (Ctrl+D), then drag the copy onto the folder.
  await row('readme.txt').getByText('readme.txt').click();
  await page.getByRole('region', { name: 'Files' }).focus();
  await page.keyboard.press('Control+d');
  await expect.poll(() => row('readme (1).txt').count(), poll).toBe(1);
  expect(readFileSync(at('readme (1).txt'), 'utf8')).toBe('read me\n');
  await row('readme (1).txt').dragTo(row('docs'));
  await expect.poll(() => existsSync(at('docs', 'readme (1).txt')), poll).toBe(true);
  await expect.poll(() => row('readme (1).txt').count(), poll).toBe(0);

  // Cut, then paste into the folder from its menu.
  await row('hello.txt').getByText('hello.txt').click();
  await page.getByRole('region', { name: 'Files' }).focus();
  await page.keyboard.press('Control+x');
  await row('docs').getByText('docs').click({ button: 'right' });
  await page.getByRole('menuitem', { name: /Paste into/ }).click();
  await expect.poll(() => existsSync(at('docs', 'hello.txt')), poll).toBe(true);
  expect(existsSync(at('hello.txt'))).toBe(false);
  await expect.poll(() => row('hello.txt').count(), poll).toBe(0);

  // A file made behind the app shows once the open folder is listed again.
  writeFileSync(at('made-elsewhere.txt'), 'x');
  await expect.poll(() => row('made-elsewhere.txt').count(), poll).toBe(1);
  await saveScreenshot(page, `workspace-files-${shots}`);

  // The file opens in an editor tab of the main area; Ctrl+S writes it.
  await row('readme.txt').getByText('readme.txt').dblclick();
  const strip = page.getByRole('tablist', { name: 'Terminal tabs' });
  const tab = strip.getByRole('tab', { name: /readme\.txt/ });
  await expect.poll(() => tab.count(), poll).toBe(1);
  const content = page.getByRole('textbox', { name: 'File contents' });
  await expect.poll(() => content.textContent(), poll).toContain('read me');
  await content.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('and edit me');
  await expect.poll(() => tab.getByLabel('unsaved changes').count(), poll).toBe(1);
  await page.keyboard.press('Control+s');
  await expect.poll(() => readFileSync(at('readme.txt'), 'utf8'), poll).toBe('read me\nand edit me');
  await expect.poll(() => tab.getByLabel('unsaved changes').count(), poll).toBe(0);
  await saveScreenshot(page, `workspace-editor-tab-${shots}`);
  // Ctrl+Shift+E from the editor focuses the file list, not the editor again.
  await page.keyboard.press('Control+Shift+E');
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), poll)
    .toBe('Files');
  expect(await page.getByRole('tab', { name: 'Files' }).getAttribute('aria-selected')).toBe('true');

  // Opening it again focuses the same tab, not a second one.
  await row('readme.txt').getByText('readme.txt').dblclick();
  await expect.poll(() => content.count(), poll).toBe(1);
  expect(await strip.getByRole('tab', { name: /readme\.txt/ }).count()).toBe(1);

  // Quick open finds a file of the workspace by a few letters; Find in files runs on the host and a
  // result opens the editor at its line.
  await page.keyboard.press('Control+p');
  const quickOpen = page.getByRole('combobox', { name: 'Quick open' });
  await quickOpen.pressSequentially('mdelse');
  await expect
    .poll(() => page.getByRole('option').first().textContent(), poll)
    .toContain('made-elsewhere.txt');
  await saveScreenshot(page, `workspace-quick-open-${shots}`);
  await page.keyboard.press('Enter');
  await expect.poll(() => strip.getByRole('tab', { name: /made-elsewhere\.txt/ }).count(), poll).toBe(1);
  await page.getByRole('tab', { name: 'Files' }).hover();
  await page.keyboard.press('Control+Shift+H');
  const query = page.getByRole('searchbox', { name: 'Find in files' });
  await query.fill('read me');
  await query.press('Enter');
  await expect
    .poll(() => page.getByRole('status').filter({ hasText: 'matches' }).textContent(), poll)
    .toContain('2 matches in 2 files');
  // A tab under the pointer is not drawn as the selected one.
  const underline = (name: string) =>
    page.getByRole('tab', { name, exact: true }).evaluate((el) => getComputedStyle(el).borderBottomColor);
  expect(await underline('Files')).not.toBe(await underline('Search'));
  await saveScreenshot(page, `workspace-find-${shots}`);
  await page
    .getByRole('list', { name: 'Search results' })
    .getByRole('listitem')
    .filter({ hasText: 'readme (1).txt' })
    .getByRole('button', { name: 'Line 1 read me' })
    .click();
  await expect.poll(() => strip.getByRole('tab', { name: /readme \(1\)\.txt/ }).count(), poll).toBe(1);

  // The app remembers the workspace: after a reload the Files view opens in it again.
  await page.reload();
  await page.getByRole('button', { name: `Environment ${envName}` }).click();
  await page.getByRole('tab', { name: 'Files' }).click();
  await expect.poll(() => page.getByRole('textbox', { name: 'Path' }).inputValue(), poll).toBe(folder);
  await expect.poll(() => tree.getByRole('button', { name: 'project', exact: true }).count(), poll).toBe(1);
}

describe('web app: the workspace', () => {
  const rig = remoteRig('tether');

  it('opens a folder, changes files in it, and edits one in an editor tab', async () => {
    const { page } = rig.browser;
    reportOnFailure(page, 'workspace', rig.app);
    await page.goto(rig.app.url);
    await addEnvironment(page, rig.server.transportSpec(rig.proxy.url()), UI_TIMEOUT_MS);
    await workspaceFlow(page, rig.server.home, 'Lab box', 'ws');
  });
});

describe('web app: the workspace on an SSH environment', () => {
  let ssh: SshTestRig;
  let host: SshdHost;
  let app: WebApp;
  let browser: LaunchedBrowser;
  beforeEach(async () => {
    ssh = new SshTestRig();
    host = await ssh.startHost({ alias: 'lab-ssh' });
    app = await startWebApp({ homeFiles: { '.ssh/config': readFileSync(ssh.configFile, 'utf8') } });
    browser = await launchBrowser({ disableWebgl: true });
  });
  afterEach(async (ctx) => {
    await reportIfFailed(ctx);
    await browser?.close();
    await app?.stop();
    await ssh?.close();
  });

  it('opens a folder on the host, changes files in it, and edits one in an editor tab', async () => {
    const { page } = browser;
    reportOnFailure(page, 'workspace-ssh', app);
    await page.goto(app.url);
    await addSshEnvironment(page, 'lab-ssh', UI_TIMEOUT_MS);
    await workspaceFlow(page, host.home, 'lab-ssh', 'ssh');
  });
});
