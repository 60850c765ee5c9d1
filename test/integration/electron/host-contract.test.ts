// The Electron host's security contract, checked on the built main bundle (dist/electron/main.js)
// running against a recording stand-in for `electron` (no Electron binary exists here): what each
// window is created with, the CSP actually sent, navigation and window.open refused, every contract
// command (and nothing else) handled over IPC and only for the app's own page, the built preload
// running as a sandboxed one and exposing only the allow-listed bridge, the app:// handler
// refusing everything outside the real renderer folder, and tokens never called encrypted when
// safeStorage only has Linux's basic_text fallback.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandChannel, commandNames, type CommandName } from '../../../shared/ipc';
import type {
  FetchResult,
  HostSnapshot,
  PreloadReport,
  PreviewSnapshot,
} from '../../support/electron-stand-in/driver-protocol';
import { launchElectronHost, RENDERER_DIR, type ElectronHost } from '../../support/electron-host';

/** Parses a Content-Security-Policy header into directive → sources. */
function directives(csp: string | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), sources);
  }
  return map;
}

function expectStrictCsp(csp: string | undefined): void {
  const policy = directives(csp);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('script-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  for (const [name, sources] of policy) {
    expect(sources, name).not.toContain('*');
    expect(sources, name).not.toContain("'unsafe-eval'");
  }
}

type Envelope = { ok: true; output: unknown } | { ok: false; error: { code: string; message: string } };

describe('Electron host contract (built main bundle)', () => {
  let host: ElectronHost;
  let snapshot: HostSnapshot;
  let outside: string;
  const links: string[] = [];
  const SECRET = 'outside-the-renderer-folder-7f3a';

  beforeAll(async () => {
    outside = mkdtempSync(path.join(os.tmpdir(), 'tether-outside-'));
    writeFileSync(path.join(outside, 'secret.txt'), SECRET);
    // Symlinks inside the real renderer folder pointing out of it: a file and a folder.
    for (const [name, target] of [
      [`.contract-link-${process.pid}.txt`, path.join(outside, 'secret.txt')],
      [`.contract-dir-${process.pid}`, outside],
    ] as const) {
      const link = path.join(RENDERER_DIR, name);
      symlinkSync(target, link);
      links.push(link);
    }
    host = await launchElectronHost();
    snapshot = await host.call<HostSnapshot>({ op: 'snapshot' });
  });
  afterAll(async () => {
    await host?.close();
    for (const link of links) rmSync(link, { force: true });
    if (outside) rmSync(outside, { recursive: true, force: true });
  });

  it('creates every window isolated, sandboxed, without Node and without webviews', () => {
    expect(snapshot.windows.length).toBeGreaterThan(0);
    for (const { options, loadedUrls } of snapshot.windows) {
      const prefs = options.webPreferences as Record<string, unknown>;
      expect(prefs.contextIsolation).toBe(true);
      expect(prefs.sandbox).toBe(true);
      expect(prefs.nodeIntegration).toBe(false);
      expect(prefs.nodeIntegrationInSubFrames ?? false).toBe(false);
      expect(prefs.nodeIntegrationInWorker ?? false).toBe(false);
      expect(prefs.webviewTag ?? false).toBe(false);
      expect(prefs.webSecurity ?? true).toBe(true);
      expect(prefs.allowRunningInsecureContent ?? false).toBe(false);
      expect(prefs.experimentalFeatures ?? false).toBe(false);
      expect(prefs.preload).toBe(path.join(path.dirname(RENDERER_DIR), 'electron', 'preload.cjs'));
      expect(loadedUrls).toEqual(['app://tether/index.html']);
    }
  });

  it('registers app:// as privileged before the app is ready, then serves the page with a strict CSP', async () => {
    expect(snapshot.privilegedSchemes).toEqual([
      {
        schemes: [expect.objectContaining({ scheme: 'app' })],
        beforeReady: true,
      },
    ]);
    const page = await host.call<FetchResult>({ op: 'fetch', url: 'app://tether/index.html' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Tether');
    expectStrictCsp(page.headers['content-security-policy']);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it("turns off Chromium's holding of tasks after a key press before the app is ready", () => {
    // Held tasks delay a keystroke's echo by a frame (electron/main/renderer-switches.ts).
    expect(snapshot.switches).toContainEqual({
      name: 'disable-features',
      value: expect.stringMatching(/(^|,)DeferRendererTasksAfterInput(,|$)/),
      beforeReady: true,
    });
  });

  it('puts the same CSP on every response the session receives', async () => {
    const results = await host.call<Array<{ responseHeaders?: Record<string, string[]> }>>({
      op: 'headers-received',
      url: 'https://example.com/',
      responseHeaders: { 'Content-Type': ['text/html'] },
    });
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) {
      expectStrictCsp(result.responseHeaders?.['Content-Security-Policy']?.join(', '));
    }
  });

  it.each([
    ['a parent folder', 'app://tether/..%2Felectron%2Fmain.js'],
    ['an encoded parent folder', 'app://tether/%2e%2e%2Felectron%2Fmain.js'],
    ['an encoded parent folder (upper case)', 'app://tether/%2E%2E%2F%2E%2E%2Fpackage.json'],
    ['a backslash parent folder', 'app://tether/..%5Celectron%5Cmain.js'],
    ['an absolute path', 'app://tether/%2Fetc%2Fpasswd'],
    ['an absolute path after a double slash', 'app://tether//etc/passwd'],
    ['a symlinked file pointing outside', `app://tether/.contract-link-${process.pid}.txt`],
    ['a symlinked folder pointing outside', `app://tether/.contract-dir-${process.pid}/secret.txt`],
    ['another host', 'app://evil/index.html'],
    ['the folder itself', 'app://tether/'],
    ['a malformed escape', 'app://tether/%E0%A4%A'],
    ['a NUL byte', 'app://tether/index.html%00.png'],
  ])('refuses %s (%s)', async (_what, url) => {
    const response = await host.call<FetchResult>({ op: 'fetch', url });
    expect(response.status).toBe(404);
    expect(response.body).not.toContain(SECRET);
    expect(response.body).not.toContain('"name": "tether"');
  });

  it.each([
    'https://evil.example/',
    'http://127.0.0.1:8080/',
    'file:///etc/passwd',
    'app://tether.evil.example/index.html',
    'app://evil/index.html',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
  ])('refuses to navigate to %s, in the window and in any later webContents', async (url) => {
    expect(await host.call({ op: 'navigate', url })).toEqual({ prevented: true });
    expect(await host.call({ op: 'navigate', url, later: true })).toEqual({ prevented: true });
  });

  it('lets the page navigate within the app', async () => {
    expect(await host.call({ op: 'navigate', url: 'app://tether/index.html' })).toEqual({
      prevented: false,
    });
  });

  it.each(['https://evil.example/', 'app://tether/index.html', 'file:///etc/passwd', 'about:blank'])(
    'denies window.open(%s), in the window and in any later webContents',
    async (url) => {
      expect(await host.call({ op: 'window-open', url })).toEqual({ action: 'deny' });
      expect(await host.call({ op: 'window-open', url, later: true })).toEqual({ action: 'deny' });
    },
  );

  it('refuses to attach webviews and denies every permission', async () => {
    expect(await host.call({ op: 'attach-webview' })).toEqual({ prevented: true });
    expect(snapshot.permissionHandlers).toEqual({ request: true, check: true });
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal']) {
      expect(await host.call({ op: 'permission', permission })).toEqual({ granted: false, checked: false });
    }
  });

  it('handles exactly the contract commands over IPC, one channel each', () => {
    expect([...snapshot.ipcChannels].sort()).toEqual(commandNames.map(commandChannel).sort());
  });

  it('answers the app page, and refuses other webContents and frames of other origins', async () => {
    const channel = commandChannel('settings.get');
    const ok = await host.call<Envelope>({ op: 'invoke', channel, input: {}, from: 'app-page' });
    expect(ok).toMatchObject({ ok: true, output: { theme: expect.any(String) } });
    for (const from of ['other-contents', 'foreign-frame', 'lookalike-origin'] as const) {
      const refused = await host.call<Envelope>({ op: 'invoke', channel, input: {}, from });
      expect(refused, from).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    }
  });

  describe('preview views', () => {
    const invokePreview = (name: CommandName, input: unknown) =>
      host.call<Envelope>({ op: 'invoke', channel: commandChannel(name), input, from: 'app-page' });
    const previews = () => host.call<PreviewSnapshot>({ op: 'preview-snapshot' });
    const navigate = (
      view: number,
      url: string,
      event: 'will-navigate' | 'will-redirect' = 'will-navigate',
    ) => host.call<{ prevented: boolean }>({ op: 'preview-navigate', view, url, event });

    it("shows a forward's page in an isolated view that stays on the forward's origin", async () => {
      const id = 'env-1/f-5173';
      const opened = await invokePreview('preview.open', { id, envId: 'env-1', port: 5173 });
      expect(opened).toMatchObject({ ok: true, output: { id, url: 'http://localhost:5173/', error: null } });
      let [view] = (await previews()).views;
      expect(view?.webPreferences).toMatchObject({
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        nodeIntegrationInSubFrames: false,
        nodeIntegrationInWorker: false,
        webSecurity: true,
        webviewTag: false,
      });
      expect(view?.webPreferences.preload).toBeUndefined();
      // Its own session, in memory only (no "persist:"), one per environment.
      expect(view?.partition).toBe('tether-preview-env-1');
      expect(view).toMatchObject({ loadedUrls: ['http://localhost:5173/'], visible: false, inWindow: true });

      const bounds = { x: 200, y: 80, width: 600, height: 400 };
      expect(await invokePreview('preview.place', { id, bounds })).toMatchObject({ ok: true });
      [view] = (await previews()).views;
      expect(view).toMatchObject({ visible: true, bounds });

      // The forward's origin, on each loopback name, stays in the view (the app page's rules, which
      // forbid leaving app://, are not applied to it); anything else goes to the renderer instead.
      expect(await navigate(0, 'http://127.0.0.1:5173/about')).toEqual({ prevented: false });
      expect(await navigate(0, 'http://[::1]:5173/')).toEqual({ prevented: false });
      for (const url of ['https://evil.example/', 'http://localhost:5174/', 'file:///etc/passwd'])
        expect(await navigate(0, url), url).toEqual({ prevented: true });
      expect(await navigate(0, 'https://login.example/', 'will-redirect')).toEqual({ prevented: true });
      expect(await host.call({ op: 'preview-window-open', view: 0, url: 'https://docs.example/' })).toEqual({
        action: 'deny',
      });
      expect(
        await host.call({ op: 'preview-window-open', view: 0, url: 'http://localhost:5173/popup' }),
      ).toEqual({ action: 'deny' });
      const after = await previews();
      expect(after.views[0]?.loadedUrls).toEqual(['http://localhost:5173/', 'http://localhost:5173/popup']);
      expect(after.pageEvents.map((e) => e.payload)).toEqual(
        [
          'https://evil.example/',
          'http://localhost:5174/',
          'file:///etc/passwd',
          'https://login.example/',
          'https://docs.example/',
        ].map((url) => ({ id, envId: 'env-1', url })),
      );
      // Nothing went to the system browser behind the renderer's back (it asks for untrusted hosts).
      expect(after.openedExternally).not.toContain('https://docs.example/');

      expect(await host.call({ op: 'preview-permission', view: 0, permission: 'media' })).toEqual({
        granted: false,
        checked: false,
        device: false,
      });
      expect(await host.call({ op: 'preview-download', view: 0 })).toEqual({ prevented: true });

      // Open again on the same port: the same view, where it is. Retained by no pane: closed.
      await invokePreview('preview.open', { id, envId: 'env-1', port: 5173 });
      expect((await previews()).views).toHaveLength(1);
      await invokePreview('preview.open', { id: 'env-2/f-3000', envId: 'env-2', port: 3000 });
      expect((await previews()).views[1]?.partition).toBe('tether-preview-env-2');
      await invokePreview('preview.retain', { ids: ['env-2/f-3000'] });
      const retained = await previews();
      expect(retained.views.map((v) => [v.closed, v.inWindow])).toEqual([
        [true, false],
        [false, true],
      ]);

      // The app's page loading again closes every view (the new page has no panes for them yet).
      await host.call({ op: 'page-reload' });
      expect((await previews()).views.map((v) => v.closed)).toEqual([true, true]);
    });
  });

  it('runs the built preload as a sandboxed one, exposing only window.tether with invoke and on', async () => {
    const report = await host.call<PreloadReport>({ op: 'load-preload' });
    expect(report.required).toEqual(['electron']);
    expect(report.exposed).toEqual({ tether: { invoke: 'function', on: 'function' } });
  });

  it('lets the page reach contract commands through the preload, and nothing else', async () => {
    const settings = await host.call<{ value?: Envelope }>({
      op: 'preload-invoke',
      name: 'settings.get',
      input: {},
    });
    expect(settings.value).toMatchObject({ ok: true, output: { theme: expect.any(String) } });
    for (const name of ['__proto__', 'constructor', 'tether:invoke:settings.get', 'shell.openPath']) {
      const refused = await host.call<{ thrown?: string }>({ op: 'preload-invoke', name, input: {} });
      expect(refused.thrown, name).toContain('Unknown command');
      const listen = await host.call<{ thrown?: string }>({ op: 'preload-on', name });
      expect(listen.thrown, name).toContain('Unknown event');
    }
  });

  it('says tokens are encrypted when a real keyring backs safeStorage, with no warning', async () => {
    const storage = await host.call<Envelope>({
      op: 'invoke',
      channel: commandChannel('app.tokenStorage'),
      input: {},
      from: 'app-page',
    });
    expect(storage).toEqual({
      ok: true,
      output: { encrypted: true, description: 'encrypted with the OS keychain (gnome_libsecret)' },
    });
    const notices = await host.call<Envelope>({
      op: 'invoke',
      channel: commandChannel('app.notices'),
      input: {},
      from: 'app-page',
    });
    expect(notices).toEqual({ ok: true, output: [] });
    expect(snapshot.storageBackendAskedBeforeReady).toBe(false);
  });
});

describe('Electron host without a keyring (safeStorage basic_text)', () => {
  it('warns the user and never calls the tokens encrypted, then quits cleanly', async () => {
    const host = await launchElectronHost({ keyring: 'basic_text' });
    let closed = false;
    try {
      const invoke = (name: 'app.tokenStorage' | 'app.notices') =>
        host.call<Envelope>({ op: 'invoke', channel: commandChannel(name), input: {}, from: 'app-page' });
      const storage = await invoke('app.tokenStorage');
      expect(storage).toMatchObject({ ok: true, output: { encrypted: false } });
      expect(JSON.stringify(storage)).toContain('not encrypted');
      const notices = await invoke('app.notices');
      expect(notices).toMatchObject({
        ok: true,
        output: [{ level: 'warning', message: expect.stringContaining('not encrypted') }],
      });
      closed = true;
      expect(await host.close()).toEqual({ quitted: true, exitCode: 0 });
    } finally {
      if (!closed) await host.close();
    }
  });
});
