// The folder walk of downloads against a hostile server (test/support/hostile-fs-server.ts): on
// Windows it also refuses drive and stream names, device names and trailing dots or spaces, and it
// never looks into a refused folder; a tree that is too wide, too big or endlessly deep fails the
// walk with a clear error instead of costing memory and local folders without bound.
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { walkRemoteFolder, WALK_LIMITS } from '../../../electron/client/files/folder-walk';
import { WALK_MAX_DEPTH } from '../../../electron/client/constants';
import { startHostileFsServer, type HostileEntry } from '../../support/hostile-fs-server';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function clientOn(
  entries: HostileEntry[],
  generated?: (dir: string) => Array<{ name: string; isDirectory: boolean }> | undefined,
): Promise<RemoteExecServerClient> {
  const server = await startHostileFsServer({ root: '/w', entries, ...(generated ? { generated } : {}) });
  closers.push(() => server.close());
  const client = new RemoteExecServerClient({ transport: { kind: 'ws', url: server.url } });
  closers.push(() => client.close());
  await client.connect();
  return client;
}

const file = (name: string): HostileEntry => ({ name, data: Buffer.from(name) });

describe('the folder walk against a hostile server', () => {
  it('on Windows refuses drives, streams, devices and trailing dots, and does not look into them', async () => {
    const windowsOnly = ['CON', 'nul.txt', 'Com1.log', 'lpt9', 'a:b', 'C:', 'trail.', 'trail ', 'Con .txt'];
    const client = await clientOn([
      file('ok.txt'),
      file('..\\..\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\x.cmd'),
      ...windowsOnly.map(file),
      { name: 'aux', entries: [file('inside.txt')] },
      { name: 'fine', entries: [file('prn.c'), file('deeper.txt')] },
    ]);
    const onWindows = await walkRemoteFolder(client.fs, '/w', 'follow', { platform: 'win32' });
    expect(onWindows.files.map((f) => f.path).sort()).toEqual(['fine/deeper.txt', 'ok.txt']);
    expect(onWindows.folders).toEqual(['fine']);
    expect(onWindows.refused.map((r) => r.path).sort()).toEqual(
      [
        '..\\..\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\x.cmd',
        ...windowsOnly,
        'aux',
        'fine/prn.c',
      ].sort(),
    );
    expect(onWindows.refused.find((r) => r.path === 'nul.txt')?.reason).toBe(
      '"nul" is a Windows device name',
    );

    // On Linux only the backslashes are refused; the rest are ordinary names there.
    const onLinux = await walkRemoteFolder(client.fs, '/w', 'follow', { platform: 'linux' });
    expect(onLinux.refused.map((r) => r.path)).toEqual([
      '..\\..\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\x.cmd',
    ]);
    expect(onLinux.files.map((f) => f.path)).toContain('aux/inside.txt');
  });

  it('an endless tree fails the walk at the depth limit', async () => {
    // Every folder under /w holds one more folder, forever.
    const client = await clientOn([], (dir) =>
      dir.startsWith('/w') ? [{ name: 'd', isDirectory: true }] : undefined,
    );
    await expect(walkRemoteFolder(client.fs, '/w', 'follow')).rejects.toMatchObject({
      code: 'tooLarge',
      message: expect.stringContaining(`is more than ${WALK_MAX_DEPTH} folders deep; nothing was copied`),
    });
  });

  it('a folder of too many entries, or a tree of too many, fails the walk', async () => {
    const wide = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ name: `f${i}`, isDirectory: false }));
    const client = await clientOn([], (dir) => {
      if (dir === '/w')
        return [
          { name: 'a', isDirectory: true },
          { name: 'b', isDirectory: true },
        ];
      if (dir === '/w/a' || dir === '/w/b') return wide(60);
      return undefined;
    });
    const limits = { ...WALK_LIMITS, entriesPerFolder: 59 };
    await expect(walkRemoteFolder(client.fs, '/w', 'follow', { limits })).rejects.toMatchObject({
      code: 'tooLarge',
      message: expect.stringContaining('has a folder (/w/a) of more than 59 entries'),
    });
    await expect(
      walkRemoteFolder(client.fs, '/w', 'follow', { limits: { ...WALK_LIMITS, entries: 100 } }),
    ).rejects.toMatchObject({
      code: 'tooLarge',
      message: expect.stringContaining('has more than 100 entries'),
    });
    // Within the limits the same tree is walked whole.
    const tree = await walkRemoteFolder(client.fs, '/w', 'follow', {
      limits: { ...WALK_LIMITS, entries: 122 },
    });
    expect(tree.files).toHaveLength(120);
  });
});
