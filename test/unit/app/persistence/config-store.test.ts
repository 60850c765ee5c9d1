import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CONFIG_FILE_NAME,
  ConfigStore,
  LOCAL_ENVIRONMENT_ID,
} from '../../../../electron/app/persistence/config-store';
import { FileSecretStore } from '../../../../electron/app/persistence/file-secret-store';
import { EnvironmentRuntime } from '../../../../electron/app/environments/environment-runtime';
import { SshPromptBroker } from '../../../../electron/app/ssh/ssh-prompts';
import {
  ANSI_COLOUR_NAMES,
  DEFAULT_SETTINGS,
  DEFAULT_TERMINAL_SETTINGS,
  EMPTY_TERMINAL_PROFILE,
  Settings,
  type SchemeColours,
} from '../../../../shared/ipc';

/** A valid custom scheme: every colour grey. */
const SOME_COLOURS = Object.fromEntries(
  ['background', 'foreground', 'cursor', 'selectionBackground', ...ANSI_COLOUR_NAMES].map((k) => [
    k,
    '#808080',
  ]),
) as SchemeColours;

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-config-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('ConfigStore', () => {
  it('starts with the Local environment when there is no file, and round-trips a saved config', async () => {
    const dir = tempDir();
    const store = new ConfigStore(dir);
    const first = await store.load();
    expect(first.problem).toBeNull();
    expect(first.config.environments.map((e) => e.id)).toEqual([LOCAL_ENVIRONMENT_ID]);
    const config = {
      ...first.config,
      environments: [
        ...first.config.environments,
        {
          id: 'x',
          name: 'X',
          color: '#123456',
          settings: { kind: 'ws' as const, url: 'ws://127.0.0.1:1' },
          enabled: false,
        },
      ],
    };
    await store.save(config);
    expect((await new ConfigStore(dir).load()).config).toEqual(config);
    expect(readdirSync(dir)).toEqual([CONFIG_FILE_NAME]);
  });

  it('moves a corrupt file aside, says where it went, and never overwrites it', async () => {
    for (const content of [
      '{ not json',
      JSON.stringify({ version: 1, environments: 'nope', settings: {} }),
    ]) {
      const dir = tempDir();
      writeFileSync(path.join(dir, CONFIG_FILE_NAME), content);
      const loaded = await new ConfigStore(dir).load();
      const aside = readdirSync(dir).find((f) => f.startsWith(`${CONFIG_FILE_NAME}.corrupt-`));
      expect(aside).toBeDefined();
      expect(readFileSync(path.join(dir, aside!), 'utf8')).toBe(content);
      expect(loaded.problem).toContain(aside!);
      expect(loaded.config.environments.map((e) => e.id)).toEqual([LOCAL_ENVIRONMENT_ID]);
    }
  });

  it('loads a file written before trusted link hosts existed, with none trusted', async () => {
    const dir = tempDir();
    const settings = { scrollback: 2000, copyOnSelect: true, fontSize: 14, theme: 'dark' };
    writeFileSync(
      path.join(dir, CONFIG_FILE_NAME),
      JSON.stringify({ version: 1, environments: [], settings }),
    );
    const loaded = await new ConfigStore(dir).load();
    expect(loaded.problem).toBeNull();
    expect(loaded.config.settings).toEqual({
      ...settings,
      trustedLinkHosts: [],
      ...DEFAULT_TERMINAL_SETTINGS,
    });
  });

  it('loads a file written before the terminal settings existed, with their defaults, and keeps the rest', async () => {
    const dir = tempDir();
    const settings = {
      scrollback: 2000,
      copyOnSelect: true,
      fontSize: 14,
      theme: 'dark',
      trustedLinkHosts: ['a.example'],
    };
    writeFileSync(
      path.join(dir, CONFIG_FILE_NAME),
      JSON.stringify({ version: 1, environments: [], settings }),
    );
    const loaded = await new ConfigStore(dir).load();
    expect(loaded.problem).toBeNull();
    expect(loaded.config.settings).toEqual({
      ...settings,
      fontFamily: '',
      lineHeight: 1,
      letterSpacing: 0,
      cursorStyle: 'block',
      cursorBlink: true,
      scheme: 'follow-theme',
      lightScheme: 'tether-light',
      darkScheme: 'tether-dark',
      customScheme: null,
      bell: 'visual',
      rightClick: 'menu',
      shellIntegration: true,
      predictiveEcho: 'auto',
    });
    // Every default passes the contract, so the first settings.update after the upgrade is valid.
    expect(Settings.safeParse(DEFAULT_SETTINGS).success).toBe(true);
  });

  it('keeps the terminal settings and a custom scheme across a save and a load', async () => {
    const dir = tempDir();
    const store = new ConfigStore(dir);
    const { config } = await store.load();
    const customScheme = { ...SOME_COLOURS, red: '#123456' };
    const settings: Settings = {
      ...config.settings,
      fontFamily: 'Fira Code, JetBrains Mono',
      lineHeight: 1.25,
      cursorStyle: 'bar',
      scheme: 'custom',
      customScheme,
      bell: 'notify',
      rightClick: 'paste',
      predictiveEcho: 'never',
    };
    await store.save({ ...config, settings });
    expect((await new ConfigStore(dir).load()).config.settings).toEqual(settings);
  });

  it('refuses a custom colour that is not #rrggbb rather than drawing with it', () => {
    expect(Settings.shape.customScheme.safeParse({ ...SOME_COLOURS, red: 'red; x' }).success).toBe(false);
    expect(Settings.shape.fontFamily.safeParse('Fira"; }').success).toBe(false);
  });

  it('loads a file written before terminal profiles existed: each environment gets the empty profile', async () => {
    const dir = tempDir();
    const ssh = {
      id: 'box',
      name: 'Box',
      color: '#10b981',
      settings: { kind: 'ssh', destination: 'box' },
      enabled: true,
    };
    writeFileSync(
      path.join(dir, CONFIG_FILE_NAME),
      JSON.stringify({ version: 1, environments: [ssh], settings: DEFAULT_SETTINGS }),
    );
    const loaded = await new ConfigStore(dir).load();
    expect(loaded.problem).toBeNull();
    const stored = loaded.config.environments.find((e) => e.id === 'box');
    expect(stored).toEqual(ssh);
    const view = new EnvironmentRuntime(stored!, false, {
      createClient: () => {
        throw new Error('this test never connects');
      },
      transport: () => Promise.reject(new Error('this test never connects')),
      bufferedBytes: () => 0,
      changed: () => undefined,
      prompts: new SshPromptBroker({ opened: () => undefined, closed: () => undefined }),
    }).view;
    expect(view.terminalProfile).toEqual(EMPTY_TERMINAL_PROFILE);
  });

  it('keeps a terminal profile across a save and a load, and refuses one with a bad variable name', async () => {
    const dir = tempDir();
    const store = new ConfigStore(dir);
    const { config } = await store.load();
    const terminalProfile = {
      shell: '/bin/bash',
      args: ['-l'],
      cwd: '~/src',
      env: [{ name: 'GREETING', value: 'hi' }],
      startCommands: ['export PATH="$HOME/bin:$PATH"'],
    };
    const local = { ...config.environments[0]!, terminalProfile };
    await store.save({ ...config, environments: [local] });
    expect((await new ConfigStore(dir).load()).config.environments[0]?.terminalProfile).toEqual(
      terminalProfile,
    );

    const bad = { ...local, terminalProfile: { ...terminalProfile, env: [{ name: 'NO-GOOD', value: '' }] } };
    writeFileSync(path.join(dir, CONFIG_FILE_NAME), JSON.stringify({ ...config, environments: [bad] }));
    expect((await new ConfigStore(dir).load()).problem).toMatch(
      /environments\.0\.terminalProfile\.env\.0\.name: "NO-GOOD" is not a valid variable name/,
    );
  });

  it('treats a file from a newer version as unreadable rather than guessing', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, CONFIG_FILE_NAME), JSON.stringify({ version: 99 }));
    const loaded = await new ConfigStore(dir).load();
    expect(loaded.problem).toContain('newer Tether');
  });
});

describe('FileSecretStore', () => {
  it('keeps secrets in a 0600 file, and applies the sealer', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'tokens.json');
    const sealer = {
      protection: { encrypted: true, description: 'reversed (test)', warning: null },
      seal: async (plain: string) => Buffer.from(plain).reverse().toString('base64'),
      unseal: async (sealed: string) => Buffer.from(sealed, 'base64').reverse().toString(),
    };
    const store = new FileSecretStore(file, sealer);
    await store.set('a', 'secret-token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain('secret-token');
    expect(await new FileSecretStore(file, sealer).get('a')).toBe('secret-token');
    await store.delete('a');
    expect(await new FileSecretStore(file, sealer).get('a')).toBeNull();
  });

  it('says it does not encrypt when it has no sealer', () => {
    const file = path.join(tempDir(), 'tokens.json');
    expect(new FileSecretStore(file).protection).toMatchObject({ encrypted: false, warning: null });
    expect(new FileSecretStore(file).protection.description).toContain('not encrypted');
  });
});
