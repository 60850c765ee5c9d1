// Environments against real servers: persistence across AppService restarts, corrupt config files,
// tokens kept out of the config, removal ending the environment's processes and deleting its token,
// and "test connection" naming the stage that failed.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_FILE_NAME } from '../../../electron/app/persistence/config-store';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { createHarness, waitFor } from './app-harness';
import { pidAlive } from '../../support/pids';

const TOKEN = 'correct-horse-battery-staple-0123456789';
let authed: StartedServer;
let tokenDir: string;

beforeAll(async () => {
  tokenDir = mkdtempSync(path.join(os.tmpdir(), 'tether-token-'));
  const tokenFile = path.join(tokenDir, 'token');
  writeFileSync(tokenFile, TOKEN, { mode: 0o600 });
  authed = await startServer('tether', 'ws', {
    extraArgs: ['--ws-auth', 'capability-token', '--ws-token-file', tokenFile],
  });
});
afterAll(async () => {
  await authed?.stop();
  rmSync(tokenDir, { recursive: true, force: true });
});

describe('environments', () => {
  it('persist across restarts with the token kept out of the config file, and connect with it', async () => {
    const first = await createHarness();
    const added = await first.invoke('environments.add', {
      name: 'Authed',
      color: '#ff8800',
      settings: { kind: 'ws', url: authed.url! },
      token: TOKEN,
    });
    expect(added.hasToken).toBe(true);
    await waitFor(
      async () =>
        (await first.invoke('environments.list', {})).find((e) => e.id === added.id)?.link.kind ===
        'connected',
      'authed connected',
    );
    await first.close({ keepDataDir: true });

    const config = readFileSync(path.join(first.dataDir, CONFIG_FILE_NAME), 'utf8');
    expect(config).toContain('Authed');
    expect(config).not.toContain(TOKEN);
    expect(statSync(path.join(first.dataDir, 'tokens.json')).mode & 0o777).toBe(0o600);

    const second = await createHarness({ dataDir: first.dataDir });
    try {
      const envs = await second.invoke('environments.list', {});
      expect(envs.map((e) => e.name)).toEqual(['Local', 'Authed']);
      expect(envs[1]).toMatchObject({ id: added.id, hasToken: true, color: '#ff8800', enabled: true });
      await waitFor(
        async () => (await second.invoke('environments.list', {}))[1]?.link.kind === 'connected',
        'reconnected after restart',
      );
      const renamed = await second.invoke('environments.update', {
        id: added.id,
        draft: { name: 'Renamed', color: '#00aa00', settings: { kind: 'ws', url: authed.url! } },
      });
      expect(renamed).toMatchObject({ name: 'Renamed', color: '#00aa00', hasToken: true });
      const cleared = await second.invoke('environments.update', {
        id: added.id,
        draft: { name: 'Renamed', color: '#00aa00', settings: { kind: 'ws', url: authed.url! }, token: null },
      });
      expect(cleared.hasToken).toBe(false);
      await waitFor(
        async () =>
          (await second.invoke('environments.list', {}))[1]?.link.kind === 'failed' ||
          (await second.invoke('environments.list', {}))[1]?.link.kind === 'reconnecting',
        'refused without a token',
      );
      await second.invoke('environments.update', {
        id: added.id,
        draft: {
          name: 'Renamed',
          color: '#00aa00',
          settings: { kind: 'ws', url: authed.url! },
          token: TOKEN,
        },
      });
      await waitFor(
        async () => (await second.invoke('environments.list', {}))[1]?.link.kind === 'connected',
        'connected with the new token',
      );
      await expect(
        second.invoke('environments.update', {
          id: 'local',
          draft: { name: 'L', color: '#000000', settings: { kind: 'ws', url: 'ws://x' } },
        }),
      ).rejects.toMatchObject({ code: 'invalidInput' });
      await second.invoke('environments.disconnect', { id: added.id });
      const after = (await second.invoke('environments.list', {}))[1]!;
      expect(after).toMatchObject({ enabled: false, link: { kind: 'idle' } });
      await expect(second.invoke('files.home', { envId: added.id })).rejects.toMatchObject({
        code: 'disconnected',
      });
      await second.invoke('environments.remove', { id: added.id });
      expect((await second.invoke('environments.list', {})).map((e) => e.id)).toEqual(['local']);
      expect(second.eventsNamed('environments.removed')).toEqual([{ id: added.id }]);
      await expect(second.invoke('environments.remove', { id: 'local' })).rejects.toMatchObject({
        code: 'conflict',
      });
    } finally {
      await second.close();
    }
  });

  it('removing an environment ends its running processes and deletes only its token', async () => {
    const h = await createHarness({ autoConnect: false });
    try {
      // A second environment with its own token, to show removal deletes only the removed one's.
      const otherToken = 'other-environment-token-9876543210';
      const other = await h.invoke('environments.add', {
        name: 'Other',
        color: '#0088ff',
        settings: { kind: 'ws', url: authed.url! },
        token: otherToken,
      });
      await h.invoke('environments.disconnect', { id: other.id });
      const doomed = await h.invoke('environments.add', {
        name: 'Doomed',
        color: '#ff0000',
        settings: { kind: 'ws', url: authed.url! },
        token: TOKEN,
      });
      await waitFor(
        async () =>
          (await h.invoke('environments.list', {})).find((e) => e.id === doomed.id)?.link.kind ===
          'connected',
        'doomed connected',
      );
      const tokensFile = path.join(h.dataDir, 'tokens.json');
      expect(readFileSync(tokensFile, 'utf8')).toContain(TOKEN);

      // A plain child and an interactive login shell on a terminal (which ignores SIGTERM).
      const sleeper = await h.invoke('processes.start', {
        envId: doomed.id,
        argv: ['sleep', '600'],
        tty: false,
      });
      const shell = await h.invoke('processes.start', { envId: doomed.id, tty: true });
      const pids = [sleeper.pid!, shell.pid!];
      expect(pids.every((pid) => typeof pid === 'number' && pidAlive(pid))).toBe(true);

      await h.invoke('environments.remove', { id: doomed.id, terminateProcesses: true });
      await waitFor(() => pids.every((pid) => !pidAlive(pid)), 'the removed environment’s processes ended');
      expect(h.eventsNamed('processes.removed')).toEqual(
        expect.arrayContaining([
          { envId: doomed.id, processId: sleeper.processId },
          { envId: doomed.id, processId: shell.processId },
        ]),
      );
      expect((await h.invoke('environments.list', {})).map((e) => e.id)).toEqual(['local', other.id]);

      // The token file no longer holds the removed environment's token, nor any entry for it.
      const secrets = (JSON.parse(readFileSync(tokensFile, 'utf8')) as { secrets: Record<string, string> })
        .secrets;
      expect(Object.values(secrets)).toEqual([otherToken]);
      expect(Object.keys(secrets).some((key) => key.includes(doomed.id))).toBe(false);
      expect(Object.keys(secrets).some((key) => key.includes(other.id))).toBe(true);
    } finally {
      await h.close();
    }
  });

  it('moves a corrupt config aside and tells the UI, keeping Local usable', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tether-app-'));
    writeFileSync(path.join(dataDir, CONFIG_FILE_NAME), '{"version":1,"environments":[{"id":');
    const h = await createHarness({ dataDir, autoConnect: false });
    try {
      const notices = await h.invoke('app.notices', {});
      expect(notices).toHaveLength(1);
      expect(notices[0]!.level).toBe('error');
      const aside = readdirSync(dataDir).find((f) => f.includes('.corrupt-'));
      expect(aside).toBeDefined();
      expect(notices[0]!.message).toContain(aside!);
      expect((await h.invoke('environments.list', {})).map((e) => e.id)).toEqual(['local']);
      await h.invoke('app.dismissNotice', { id: notices[0]!.id });
      expect(await h.invoke('app.notices', {})).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it('rejects bad drafts with invalidInput', async () => {
    const h = await createHarness({ autoConnect: false });
    try {
      const base = { name: 'x', color: '#000000' };
      await expect(
        h.invoke('environments.add', { ...base, settings: { kind: 'local' } }),
      ).rejects.toMatchObject({ code: 'invalidInput' });
      await expect(
        h.invoke('environments.add', { ...base, settings: { kind: 'command', commandLine: "ssh 'host" } }),
      ).rejects.toMatchObject({ code: 'invalidInput' });
      await expect(
        h.invoke('environments.add', { ...base, settings: { kind: 'ws', url: 'http://x' } }),
      ).rejects.toMatchObject({ code: 'invalidInput' });
      await expect(
        h.invoke('environments.add', { ...base, color: 'red', settings: { kind: 'ws', url: 'ws://x' } }),
      ).rejects.toMatchObject({ code: 'invalidInput' });
    } finally {
      await h.close();
    }
  });

  it('test connection names the failing stage', async () => {
    const h = await createHarness({ autoConnect: false });
    const closedPort = await freePort();
    try {
      const test = (
        settings: Parameters<typeof h.invoke<'environments.test'>>[1]['settings'],
        token?: string,
      ) => h.invoke('environments.test', { settings, ...(token !== undefined ? { token } : {}) });

      const ok = await test({ kind: 'ws', url: authed.url! }, TOKEN);
      expect(ok).toMatchObject({ ok: true, stage: 'ok' });
      expect(ok.rttMs).toBeTypeOf('number');
      expect(ok.info?.executorVersion).toBeTypeOf('string');

      const wrong = await test({ kind: 'ws', url: authed.url! }, 'wrong-token');
      expect(wrong).toMatchObject({ ok: false, stage: 'auth' });
      // Said once, in one sentence each: no "Check the token.. Check the token."
      expect(wrong.message.match(/check the token/gi)).toHaveLength(1);
      expect(wrong.message.match(/refused the credentials/gi)).toHaveLength(1);
      expect(wrong.message).not.toContain('..');
      expect(await test({ kind: 'ws', url: authed.url! })).toMatchObject({ ok: false, stage: 'auth' });
      expect(await test({ kind: 'ws', url: `ws://127.0.0.1:${closedPort}` })).toMatchObject({
        ok: false,
        stage: 'refused',
      });
      expect(await test({ kind: 'ws', url: 'ws://no-such-host.invalid:7878' })).toMatchObject({
        ok: false,
        stage: 'dns',
      });
      const spawnFailure = await test({
        kind: 'command',
        commandLine: 'tether-no-such-program-xyz exec-server',
      });
      expect(spawnFailure).toMatchObject({ ok: false, stage: 'spawn' });
      expect(spawnFailure.message).toContain('tether-no-such-program-xyz');
      expect(await test({ kind: 'command', commandLine: `sh -c 'echo not-json; exit 3'` })).toMatchObject({
        ok: false,
        stage: 'handshake',
      });
      expect(await test({ kind: 'local' })).toMatchObject({ ok: true, stage: 'ok' });
    } finally {
      await h.close();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}
