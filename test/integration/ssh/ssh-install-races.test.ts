// The install under stress: two connects at once install the server and runtime once (the second
// waits on the host's lock and finds them there), and an upload cut halfway is never put in place
// or run; the next connect installs it whole.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SshError } from '../../../electron/client/transports/ssh/ssh-error';
import { daemonPids, SshTestRig } from '../../support/sshd';
import { collect, waitFor } from '../client/helpers';
import { installedOnHost, recordingHooks, sshClient, type RecordingHooks } from './ssh-helpers';

let rig: SshTestRig;
beforeAll(() => {
  rig = new SshTestRig();
});
afterAll(async () => {
  await rig.close();
});

const installs = (hooks: RecordingHooks): string[] =>
  hooks.logs.filter((line) => line.endsWith(': installed'));

describe('SSH install races', () => {
  it('installs once when two clients connect at the same time', async () => {
    const host = await rig.startHost({ alias: 'together', noNode: true });
    rig.trustHost(host);
    const hooks = [recordingHooks(), recordingHooks()];
    const clients = hooks.map((h) => sshClient(rig, host, h));
    try {
      await Promise.all(clients.map((c) => c.connect()));
      for (const client of clients) {
        const out = collect(await client.startProcess({ argv: ['/bin/echo', 'ok'], cwd: '/', tty: true }));
        await waitFor('output', () => out.closed());
        expect(out.text()).toContain('ok');
      }
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    // Each artifact was renamed into place by exactly one of the two.
    const all = hooks.flatMap(installs).sort();
    expect(all).toHaveLength(2);
    expect(all.filter((line) => line.includes('/.tether/server/'))).toHaveLength(1);
    expect(all.filter((line) => line.includes('/.tether/runtime/'))).toHaveLength(1);
    expect(daemonPids(host)).toHaveLength(1);
  });

  it('never puts a cut upload in place, and installs it whole on the next connect', async () => {
    const host = await rig.startHost({ alias: 'cut-upload', noNode: true, proxied: true });
    rig.trustHost(host);
    const proxy = host.proxy;
    if (!proxy) throw new Error('no proxy');
    proxy.throttle(4 * 1024 * 1024, 'upstream');
    const hooks = recordingHooks();
    const onStage = hooks.onStage;
    let cut = false;
    hooks.onStage = (event) => {
      onStage(event);
      // Cut once the runtime upload (the big one) is well under way.
      if (!cut && event.stage === 'installing' && (event.bytesSent ?? 0) > 8 * 1024 * 1024) {
        cut = true;
        proxy.cutAll();
      }
    };
    const client = sshClient(rig, host, hooks);
    let failure: unknown = null;
    try {
      await client.connect();
    } catch (error) {
      failure = error;
    } finally {
      await client.close();
    }
    expect(cut).toBe(true);
    expect(failure).toBeInstanceOf(SshError);
    expect((failure as SshError).stage).toBe('installing');
    // The runtime never got its final name; its staging copy and lock are cleaned up on the host.
    const runtimeRoot = path.join(host.home, '.tether', 'runtime');
    await waitFor(
      'the staging copy to be removed',
      () => !existsSync(runtimeRoot) || readdirSync(runtimeRoot).length === 0,
    );
    expect(installedOnHost(host, 'runtime')).toEqual([]);

    proxy.throttle(null, 'upstream');
    const again = sshClient(rig, host, recordingHooks());
    try {
      await again.connect();
      const out = collect(await again.startProcess({ argv: ['/bin/echo', 'whole'], cwd: '/', tty: true }));
      await waitFor('output', () => out.closed());
      expect(out.text()).toContain('whole');
    } finally {
      await again.close();
    }
    expect(installedOnHost(host, 'runtime')).toEqual(['node-v22.23.5-linux-x64']);
  });
});
