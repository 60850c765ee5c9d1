// Trust on first use through the AppService commands, against a real wss:// server with a
// self-signed certificate: the test reports the untrusted fingerprint, pinning it makes the test
// and the environment connect (and the pin is saved), and a changed certificate fails hard.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_FILE_NAME } from '../../../electron/app/persistence/config-store';
import { FaultProxy } from '../../support/fault-proxy';
import { startWssServer } from '../../support/tls';
import { createHarness, waitFor, type Harness } from './app-harness';

/** One token for every server here, so a swapped server differs only in its certificate. */
const TOKEN = randomBytes(24).toString('base64url');

describe('wss environments: trust on first use', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const wssServer = () => startWssServer(cleanups, { token: TOKEN });

  async function harness(): Promise<Harness> {
    const h = await createHarness({ autoConnect: false });
    cleanups.push(() => h.close());
    return h;
  }

  it('reports the untrusted fingerprint, and connects once the user pins it', async () => {
    const { server, cert } = await wssServer();
    const h = await harness();
    const url = server.url!;

    const first = await h.invoke('environments.test', { settings: { kind: 'ws', url }, token: TOKEN });
    expect(first).toMatchObject({
      ok: false,
      stage: 'certificate',
      certificate: { problem: 'untrusted', fingerprint: cert.fingerprint, pinned: null },
    });
    expect(first.message).toContain(cert.fingerprint);

    const accepted = { kind: 'ws', url, tlsFingerprint: cert.fingerprint } as const;
    expect(await h.invoke('environments.test', { settings: accepted, token: TOKEN })).toMatchObject({
      ok: true,
      stage: 'ok',
    });

    // Saved in any spelling, stored in the canonical one, and kept in the config file.
    const view = await h.invoke('environments.add', {
      name: 'TLS box',
      color: '#3b82f6',
      settings: { ...accepted, tlsFingerprint: cert.fingerprint.replace(/:/g, '').toLowerCase() },
      token: TOKEN,
    });
    expect(view.settings).toEqual(accepted);
    const config = JSON.parse(readFileSync(path.join(h.dataDir, CONFIG_FILE_NAME), 'utf8')) as {
      environments: Array<{ id: string; settings: unknown }>;
    };
    expect(config.environments.find((e) => e.id === view.id)?.settings).toEqual(accepted);
    await waitFor(
      async () =>
        (await h.invoke('environments.list', {})).find((e) => e.id === view.id)?.link.kind === 'connected',
      'the pinned environment to connect',
    );
  });

  it('fails hard when the pinned certificate changes, naming both fingerprints', async () => {
    const { server, cert } = await wssServer();
    const { server: other, cert: otherCert } = await wssServer();
    const proxy = await FaultProxy.forUrl(server.url!);
    cleanups.push(() => proxy.close());
    const h = await harness();
    const settings = { kind: 'ws', url: proxy.url('wss'), tlsFingerprint: cert.fingerprint } as const;
    const view = await h.invoke('environments.add', {
      name: 'Pinned',
      color: '#10b981',
      settings,
      token: TOKEN,
    });
    const linkOf = async () => (await h.invoke('environments.list', {})).find((e) => e.id === view.id)!.link;
    await waitFor(async () => (await linkOf()).kind === 'connected', 'the pinned environment to connect');

    // The same address now answers with another certificate.
    const otherUrl = new URL(other.url!);
    proxy.retarget({ host: otherUrl.hostname, port: Number(otherUrl.port) });
    proxy.cutAll();
    const failed = await waitFor(async () => {
      const link = await linkOf();
      return link.kind === 'failed' ? link : null;
    }, 'the environment to fail');
    expect(failed.reason).toContain(cert.fingerprint);
    expect(failed.reason).toContain(otherCert.fingerprint);

    const retest = await h.invoke('environments.test', { settings, id: view.id });
    expect(retest).toMatchObject({
      ok: false,
      stage: 'certificate',
      certificate: { problem: 'changed', fingerprint: otherCert.fingerprint, pinned: cert.fingerprint },
    });
  });

  it('keeps the saved token from a changed pin: the new certificate needs the token typed', async () => {
    const { server, cert } = await wssServer();
    // Another server at the same address (same token, so a leaked token would visibly work there).
    const { server: other, cert: otherCert } = await wssServer();
    const proxy = await FaultProxy.forUrl(server.url!);
    cleanups.push(() => proxy.close());
    const h = await harness();
    const settings = { kind: 'ws', url: proxy.url('wss'), tlsFingerprint: cert.fingerprint } as const;
    const view = await h.invoke('environments.add', {
      name: 'Pinned',
      color: '#10b981',
      settings,
      token: TOKEN,
    });
    const otherUrl = new URL(other.url!);
    proxy.retarget({ host: otherUrl.hostname, port: Number(otherUrl.port) });
    proxy.cutAll();

    // The user accepts the new certificate: the same origin, another anchor.
    const repinned = { ...settings, tlsFingerprint: otherCert.fingerprint };
    const test = await h.invoke('environments.test', { settings: repinned, id: view.id });
    expect(test).toMatchObject({ ok: false, stage: 'auth' });
    expect(test.message).toContain('The saved token was not sent');
    expect(test.message).toContain(cert.fingerprint);
    // Dropping the pin for the system CAs is another anchor too.
    const unpinned = { kind: 'ws', url: settings.url } as const;
    for (const changed of [repinned, unpinned]) {
      await expect(
        h.invoke('environments.update', {
          id: view.id,
          draft: { name: 'Pinned', color: '#10b981', settings: changed },
        }),
      ).rejects.toMatchObject({ code: 'invalidInput' });
    }
    const moved = await h.invoke('environments.update', {
      id: view.id,
      draft: { name: 'Pinned', color: '#10b981', settings: repinned, token: TOKEN },
    });
    expect(moved).toMatchObject({ settings: repinned, hasToken: true });
    await waitFor(
      async () =>
        (await h.invoke('environments.list', {})).find((e) => e.id === view.id)?.link.kind === 'connected',
      'connected with the new pin and the typed token',
    );
  });

  it('refuses a pin on a ws:// URL and a pin that is not a SHA-256 fingerprint', async () => {
    const h = await harness();
    const draft = (settings: { kind: 'ws'; url: string; tlsFingerprint: string }) =>
      h.raw('environments.add', { name: 'Bad', color: '#10b981', settings });
    expect(
      await draft({ kind: 'ws', url: 'ws://127.0.0.1:1', tlsFingerprint: 'AB'.repeat(32) }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalidInput' },
    });
    expect(await draft({ kind: 'ws', url: 'wss://127.0.0.1:1', tlsFingerprint: 'AB:CD' })).toMatchObject({
      ok: false,
      error: { code: 'invalidInput' },
    });
  });
});
