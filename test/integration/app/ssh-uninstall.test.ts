// ssh.uninstall and ssh.addHostEntry through a real AppService: uninstalling an SSH environment's
// host disconnects it, stops its daemon and removes ~/.tether there, and connecting it again
// installs anew; a Host entry is appended to the ssh config the app was given, and refused twice.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvironmentView } from '../../../shared/ipc';
import { pidAlive } from '../../support/pids';
import { daemonPids, SshTestRig } from '../../support/sshd';
import { createHarness, waitFor, type Harness } from './app-harness';

let rig: SshTestRig;
beforeAll(() => {
  rig = new SshTestRig();
});
afterAll(async () => {
  await rig.close();
});

async function envView(h: Harness, id: string): Promise<EnvironmentView> {
  return (await h.invoke('environments.list', {})).find((e) => e.id === id)!;
}

describe('ssh.uninstall and ssh.addHostEntry in the app', () => {
  it('disconnects the environment, removes Tether from its host, and a connect installs again', async () => {
    const host = await rig.startHost({ alias: 'app-uninstall' });
    rig.trustHost(host);
    const h = await createHarness({
      autoConnect: false,
      sshConfig: { file: rig.configFile, explicit: true },
    });
    try {
      const env = await h.invoke('environments.add', {
        name: 'Scratch box',
        color: '#10b981',
        settings: { kind: 'ssh', destination: 'app-uninstall' },
      });
      await waitFor(async () => (await envView(h, env.id)).link.kind === 'connected', 'connected', 90_000);
      const [daemon] = daemonPids(host);
      expect(daemon).toBeDefined();

      const report = await h.invoke('ssh.uninstall', { envId: env.id });
      expect(report.host).toBe('app-uninstall');
      expect(report.stoppedPids).toEqual([daemon]);
      expect(report.removed).toContain(path.join(host.home, '.tether'));
      expect(existsSync(path.join(host.home, '.tether'))).toBe(false);
      await waitFor(() => !pidAlive(daemon!), 'the daemon to be gone');
      const after = await envView(h, env.id);
      expect(after.enabled).toBe(false);
      expect(after.link.kind).not.toBe('connected');

      await h.invoke('environments.connect', { id: env.id });
      await waitFor(
        async () => (await envView(h, env.id)).link.kind === 'connected',
        'connected again',
        90_000,
      );
      expect(existsSync(path.join(host.home, '.tether', 'server'))).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('appends a Host entry to the config it reads, shown first, and refuses the same alias again', async () => {
    const file = path.join(rig.dir, 'added_config');
    const h = await createHarness({ autoConnect: false, sshConfig: { file, explicit: true } });
    try {
      const draft = { alias: 'added', target: 'me@10.1.2.3:2200' };
      const plan = await h.invoke('ssh.planHostEntry', draft);
      expect(plan).toEqual({
        file,
        alias: 'added',
        text: 'Host added\n  HostName 10.1.2.3\n  User me\n  Port 2200\n',
      });
      expect(existsSync(file)).toBe(false);
      expect(await h.invoke('ssh.addHostEntry', draft)).toEqual(plan);
      expect(readFileSync(file, 'utf8')).toBe(plan.text);
      expect((await h.invoke('ssh.hosts', {})).map((host) => host.alias)).toEqual(['added']);
      await expect(h.invoke('ssh.addHostEntry', draft)).rejects.toMatchObject({ code: 'conflict' });
      await expect(
        h.invoke('ssh.planHostEntry', { alias: 'x\nProxyCommand y', target: 'h' }),
      ).rejects.toMatchObject({
        code: 'invalidInput',
      });
      expect(readFileSync(file, 'utf8')).toBe(plan.text);
    } finally {
      await h.close();
    }
  });
});
