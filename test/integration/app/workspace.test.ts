// The workspace through the AppService, against Tether's and codex's ws servers alike: the folder an
// environment's workspace is rooted in (checked, stored, back after a restart), and the file
// operations beyond rename and delete: a new empty file, a copy, a duplicate, a move into another
// folder. None replaces a taken name unless told to, and nothing staged is left behind.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHarness } from './app-harness';
import { remoteAppRig } from './remote-app-rig';

describe.each(['tether', 'codex'] as const)('the workspace on the %s server', (impl) => {
  const rig = remoteAppRig({ impl });
  const at = (...names: string[]): string => path.join(rig.server.home, ...names);
  const staged = (dir: string): string[] => readdirSync(dir).filter((name) => name.includes('.tether-'));

  it('opens a folder as the workspace, keeps it across a restart, and closes it', async () => {
    mkdirSync(at('project'));
    const opened = await rig.h.invoke('environments.setWorkspaceFolder', {
      id: rig.envId,
      path: at('project'),
    });
    expect(opened.workspaceFolder).toBe(at('project'));
    await rig.h.close({ keepDataDir: true });
    const next = await createHarness({ dataDir: rig.h.dataDir, autoConnect: false });
    try {
      const view = (await next.invoke('environments.list', {})).find((e) => e.id === rig.envId);
      expect(view?.workspaceFolder).toBe(at('project'));
    } finally {
      // The rig's own close (after the test) shuts the first service down again and removes the folder.
      await next.close({ keepDataDir: true });
    }
  });

  it('refuses a file as the workspace folder, and null goes back to home', async () => {
    writeFileSync(at('plain.txt'), 'x');
    await expect(
      rig.h.invoke('environments.setWorkspaceFolder', { id: rig.envId, path: at('plain.txt') }),
    ).rejects.toMatchObject({ code: 'invalidInput' });
    await rig.h.invoke('environments.setWorkspaceFolder', { id: rig.envId, path: rig.server.home });
    const closed = await rig.h.invoke('environments.setWorkspaceFolder', { id: rig.envId, path: null });
    expect(closed.workspaceFolder).toBeNull();
  });

  it('creates an empty file, and refuses a taken name without touching it', async () => {
    await rig.h.invoke('files.createFile', { envId: rig.envId, path: at('new.txt') });
    expect(readFileSync(at('new.txt'), 'utf8')).toBe('');
    writeFileSync(at('new.txt'), 'mine');
    await expect(
      rig.h.invoke('files.createFile', { envId: rig.envId, path: at('new.txt') }),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(readFileSync(at('new.txt'), 'utf8')).toBe('mine');
    expect(staged(rig.server.home)).toEqual([]);
  });

  it('copies a file and a folder, asking before a taken name is replaced', async () => {
    writeFileSync(at('a.txt'), 'A');
    mkdirSync(at('dir'));
    writeFileSync(at('dir', 'inner.txt'), 'inner');
    mkdirSync(at('dest'));
    writeFileSync(at('dest', 'a.txt'), 'theirs');
    await expect(
      rig.h.invoke('files.copy', { envId: rig.envId, from: at('a.txt'), to: at('dest', 'a.txt') }),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(readFileSync(at('dest', 'a.txt'), 'utf8')).toBe('theirs');
    const both = await rig.h.invoke('files.copy', {
      envId: rig.envId,
      from: at('a.txt'),
      to: at('dest', 'a.txt'),
      ifExists: 'keepBoth',
    });
    expect(both.path).toBe(at('dest', 'a (1).txt'));
    await rig.h.invoke('files.copy', {
      envId: rig.envId,
      from: at('a.txt'),
      to: at('dest', 'a.txt'),
      ifExists: 'replace',
    });
    expect(readFileSync(at('dest', 'a.txt'), 'utf8')).toBe('A');
    await rig.h.invoke('files.copy', { envId: rig.envId, from: at('dir'), to: at('dest', 'dir') });
    expect(readFileSync(at('dest', 'dir', 'inner.txt'), 'utf8')).toBe('inner');
    expect(readFileSync(at('a.txt'), 'utf8')).toBe('A');
    await expect(
      rig.h.invoke('files.copy', { envId: rig.envId, from: at('dir'), to: at('dir', 'dir') }),
    ).rejects.toMatchObject({ code: 'invalidInput' });
    expect(staged(at('dest'))).toEqual([]);
  });

  it('duplicates beside the original under the first free numbered name', async () => {
    writeFileSync(at('notes.md'), 'n');
    writeFileSync(at('notes (1).md'), 'taken');
    const copy = await rig.h.invoke('files.duplicate', { envId: rig.envId, path: at('notes.md') });
    expect(copy.path).toBe(at('notes (2).md'));
    expect(readFileSync(at('notes (2).md'), 'utf8')).toBe('n');
    expect(readFileSync(at('notes (1).md'), 'utf8')).toBe('taken');
  });

  it('moves into another folder, and not into itself', async () => {
    writeFileSync(at('m.txt'), 'm');
    mkdirSync(at('box'));
    await rig.h.invoke('files.rename', { envId: rig.envId, from: at('m.txt'), to: at('box', 'm.txt') });
    expect(readFileSync(at('box', 'm.txt'), 'utf8')).toBe('m');
    await expect(
      rig.h.invoke('files.rename', { envId: rig.envId, from: at('box'), to: at('box', 'box') }),
    ).rejects.toMatchObject({ code: 'invalidInput' });
  });
});
