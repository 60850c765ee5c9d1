// SSH environments through a real AppService and real sshd hosts (test/support/sshd.ts): the
// host-key question and a key passphrase as ssh.prompt events answered or cancelled over IPC, the
// connect stages with install progress in the environment's view, the failing stage with ssh's
// message, Retry asking again, secrets kept out of the log and config, and prompts cancelled by a
// disconnect and by the last renderer going away.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvironmentView, SshPromptView } from '../../../shared/ipc';
import { CONFIG_FILE_NAME } from '../../../electron/app/persistence/config-store';
import { SshTestRig } from '../../support/sshd';
import { createHarness, waitFor, type Harness } from './app-harness';

let rig: SshTestRig;
beforeAll(() => {
  rig = new SshTestRig();
});
afterAll(async () => {
  await rig.close();
});

async function sshHarness(): Promise<Harness> {
  return createHarness({ autoConnect: false, sshConfig: { file: rig.configFile, explicit: true } });
}

function promptFor(h: Harness, envId: string, seen = 0): Promise<SshPromptView> {
  return waitFor(
    () => h.eventsNamed('ssh.prompt').filter((p) => p.envId === envId)[seen],
    `ssh prompt ${seen + 1} for ${envId}`,
  );
}

function viewsOf(h: Harness, envId: string): EnvironmentView[] {
  return h.eventsNamed('environments.changed').filter((v) => v.id === envId);
}

async function envView(h: Harness, id: string): Promise<EnvironmentView> {
  return (await h.invoke('environments.list', {})).find((e) => e.id === id)!;
}

describe('SSH environments in the app', () => {
  it('asks about the unknown host key, connects when trusted, shows the install, and runs processes', async () => {
    const host = await rig.startHost({ alias: 'app-trust' });
    const h = await sshHarness();
    try {
      const env = await h.invoke('environments.add', {
        name: 'Trusted box',
        color: '#10b981',
        settings: { kind: 'ssh', destination: 'app-trust' },
      });
      const prompt = await promptFor(h, env.id);
      expect(prompt).toMatchObject({ kind: 'hostKey', envName: 'Trusted box', destination: 'app-trust' });
      expect(prompt.text).toMatch(/SHA256:/);
      expect(await h.invoke('ssh.prompts', {})).toEqual([prompt]);
      await h.invoke('ssh.answerPrompt', { id: prompt.id, answer: 'yes' });
      expect(h.eventsNamed('ssh.promptClosed')).toContainEqual({ id: prompt.id });
      await waitFor(async () => (await envView(h, env.id)).link.kind === 'connected', 'connected', 90_000);

      const stages = viewsOf(h, env.id).flatMap((v) => (v.sshConnect ? [v.sshConnect] : []));
      const order = [...new Set(stages.map((s) => s.stage))];
      expect(order).toEqual([
        'connecting',
        'authenticating',
        'checking',
        'installing',
        'starting',
        'connected',
      ]);
      const install = stages.filter((s) => s.stage === 'installing' && s.bytesTotal);
      expect(install.at(-1)?.bytesSent).toBe(install.at(-1)?.bytesTotal);
      expect((await envView(h, env.id)).sshConnect).toMatchObject({
        stage: 'connected',
        failure: null,
        passed: order,
      });

      const started = await h.invoke('processes.start', {
        envId: env.id,
        argv: ['sh', '-c', 'echo "$HOME"'],
        tty: false,
      });
      await waitFor(
        () =>
          h
            .eventsNamed('processes.changed')
            .find((p) => p.processId === started.processId && p.exitCode === 0),
        'the process exited 0',
      );
      expect((await h.invoke('files.home', { envId: env.id })).home).toBe(host.home);
      const { lines } = await h.invoke('ssh.connectLog', { envId: env.id });
      expect(lines.length).toBeGreaterThan(0);
    } finally {
      await h.close();
    }
  });

  it('fails at authenticating when the passphrase is cancelled, asks again on Retry, and never keeps the secret', async () => {
    const host = await rig.startHost({ alias: 'app-passphrase', authorizedKey: rig.passphraseKey });
    rig.trustHost(host);
    const h = await sshHarness();
    try {
      const env = await h.invoke('environments.add', {
        name: 'Key box',
        color: '#3b82f6',
        settings: { kind: 'ssh', destination: 'app-passphrase' },
      });
      const first = await promptFor(h, env.id);
      expect(first).toMatchObject({ kind: 'passphrase', secret: true, envName: 'Key box' });
      await h.invoke('ssh.answerPrompt', { id: first.id, answer: null });
      const failed = await waitFor(async () => {
        const view = await envView(h, env.id);
        return view.sshConnect?.failure ? view : null;
      }, 'the connect to fail');
      expect(failed.sshConnect?.failure?.stage).toBe('authenticating');
      expect(failed.sshConnect?.failure?.message).toMatch(/cancelled/);
      expect(failed.link.kind).not.toBe('connected');

      await h.invoke('environments.reconnectNow', { id: env.id });
      const again = await promptFor(h, env.id, 1);
      expect(again.kind).toBe('passphrase');
      // The new attempt is what is shown now, not the last one's failure.
      expect((await envView(h, env.id)).sshConnect).toMatchObject({ stage: 'authenticating', failure: null });
      await h.invoke('ssh.answerPrompt', { id: again.id, answer: SshTestRig.PASSPHRASE });
      await waitFor(async () => (await envView(h, env.id)).link.kind === 'connected', 'connected', 90_000);
      expect((await envView(h, env.id)).sshConnect?.failure).toBeNull();

      const { lines } = await h.invoke('ssh.connectLog', { envId: env.id });
      expect(lines.join('\n')).toMatch(/failed while authenticating: .*cancelled/);
      expect(lines.join('\n')).not.toContain(SshTestRig.PASSPHRASE);
      expect(JSON.stringify(h.events)).not.toContain(SshTestRig.PASSPHRASE);
      expect(readFileSync(path.join(h.dataDir, CONFIG_FILE_NAME), 'utf8')).not.toContain(
        SshTestRig.PASSPHRASE,
      );
    } finally {
      await h.close();
    }
  });

  it('tests a connection with the same stages, live, asking under the name typed in the dialog', async () => {
    await rig.startHost({ alias: 'app-test' });
    const h = await sshHarness();
    try {
      const testing = h.invoke('environments.test', {
        settings: { kind: 'ssh', destination: 'app-test' },
        name: 'Draft box',
        testId: 'test-1',
      });
      const prompt = await waitFor(() => h.eventsNamed('ssh.prompt')[0], 'the host-key prompt');
      expect(prompt).toMatchObject({ envId: null, envName: 'Draft box', kind: 'hostKey' });
      await h.invoke('ssh.answerPrompt', { id: prompt.id, answer: 'yes' });
      const result = await testing;
      expect(result).toMatchObject({ ok: true, ssh: { stage: 'connected', failure: null } });
      const live = h.eventsNamed('ssh.testProgress').filter((e) => e.testId === 'test-1');
      expect([...new Set(live.map((e) => e.progress.stage))]).toEqual([
        'connecting',
        'authenticating',
        'checking',
        'installing',
        'starting',
        'connected',
      ]);
      // The test's client is gone: nothing is listed as an environment, nothing waits for an answer.
      expect((await h.invoke('environments.list', {})).map((e) => e.settings.kind)).toEqual(['local']);
      expect(await h.invoke('ssh.prompts', {})).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it('refuses over IPC what ssh would read as an option, and the options Tether owns', async () => {
    const h = await sshHarness();
    try {
      const attempts = [
        { destination: '-oProxyCommand=touch /tmp/owned' },
        { destination: 'alice@-oProxyCommand=x' },
        { destination: 'lab', sshOptions: ['ControlPath=/tmp/elsewhere'] },
        { destination: 'lab', sshOptions: ['ProxyCommand'] },
      ];
      for (const settings of attempts) {
        const result = await h.raw('environments.add', {
          name: 'x',
          color: '#123456',
          settings: { kind: 'ssh', ...settings },
        });
        expect(result.ok ? 'accepted' : result.error.code).toBe('invalidInput');
      }
      expect((await h.invoke('environments.list', {})).length).toBe(1);
    } finally {
      await h.close();
    }
  });

  it('cancels a waiting prompt on disconnect, and when the last renderer goes away', async () => {
    await rig.startHost({ alias: 'app-leave-a' });
    await rig.startHost({ alias: 'app-leave-b' });
    const h = await sshHarness();
    try {
      const add = (destination: string) =>
        h.invoke('environments.add', {
          name: destination,
          color: '#8b5cf6',
          settings: { kind: 'ssh', destination },
        });
      const a = await add('app-leave-a');
      const b = await add('app-leave-b');
      const [promptA, promptB] = await Promise.all([promptFor(h, a.id), promptFor(h, b.id)]);

      await h.invoke('environments.disconnect', { id: a.id });
      expect(h.eventsNamed('ssh.promptClosed')).toContainEqual({ id: promptA.id });
      expect((await h.invoke('ssh.prompts', {})).map((p) => p.id)).toEqual([promptB.id]);

      h.service.detach(h.feed);
      expect(await h.invoke('ssh.prompts', {})).toEqual([]);
      const failed = await waitFor(async () => (await envView(h, b.id)).sshConnect?.failure, 'b to fail');
      expect(failed).toMatchObject({ stage: 'connecting', message: expect.stringMatching(/cancelled/) });
    } finally {
      await h.close();
    }
  });
});
