// Quick open's listing (search.files) and Find in files (search.text) through the AppService,
// against Tether's and codex's servers, running the host's real tools: each server runs with a PATH
// holding only some of them, so every path is taken — rg, git ls-files with grep, find with grep,
// and none at all (the file-system walk, and a clear error for Find in files).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIND_MAX_MATCHES, FIND_MAX_MATCHES_PER_FILE } from '../../../electron/app/limits';
import { IpcError, type TextSearchResult } from '../../../shared/ipc';
import { startLocalApp } from './app-harness';
import { remoteAppRig, type RemoteAppRig } from './remote-app-rig';

const HOSTILE = 'we:ird\nname.txt';

/** The host's own copy of `tool`, found once on this machine's PATH. */
function which(tool: string): string {
  try {
    return execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      `${tool} is needed for this test (.ci/run installs ripgrep; grep, git and find come with Debian)`,
    );
  }
}

const binDirs: string[] = [];
/** A folder of links to the given tools only, to run a server with as its whole PATH. */
function pathWith(tools: string[], extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-bin-'));
  binDirs.push(dir);
  for (const tool of tools) symlinkSync(which(tool), path.join(dir, tool));
  for (const [name, script] of Object.entries(extra)) {
    writeFileSync(path.join(dir, name), script);
    chmodSync(path.join(dir, name), 0o755);
  }
  return dir;
}
afterAll(() => {
  for (const dir of binDirs) rmSync(dir, { recursive: true, force: true });
});

/** A small workspace in the server's home: a git repo with ignored, hidden, skipped and hostile names. */
function makeWorkspace(home: string): string {
  const root = path.join(home, 'work');
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  write('src/app/main.ts', 'const needle = 1;\nexport default needle;\n');
  write('src/app/helper.ts', 'Needle in caps\nneedles and needle_x\n');
  write('docs/guide.md', 'one\ntwo\nthe needle is here\n');
  write(HOSTILE, 'a needle in a strange name\n');
  write('build.log', 'needle in an ignored file\n');
  write('.gitignore', '*.log\n');
  write('node_modules/dep/index.js', 'needle in a dependency\n');
  write(`${'d/'.repeat(20)}deep.txt`, 'too deep\n');
  execFileSync('git', ['init', '-q', root]);
  // .git now holds files of its own; make one match, to see it skipped.
  writeFileSync(path.join(root, '.git', 'needle-note'), 'needle\n');
  return root;
}

type Mode = {
  name: string;
  tools: string[];
  files: 'rg' | 'git' | 'find' | 'walk';
  text: 'rg' | 'grep' | null;
};
const MODES: Mode[] = [
  { name: 'rg', tools: ['rg', 'grep', 'git', 'find'], files: 'rg', text: 'rg' },
  { name: 'git and grep', tools: ['git', 'grep'], files: 'git', text: 'grep' },
  { name: 'find and grep', tools: ['find', 'grep'], files: 'find', text: 'grep' },
  { name: 'no tools', tools: [], files: 'walk', text: null },
];

function matchesOf(result: TextSearchResult): Array<[string, number, string]> {
  return result.files
    .flatMap((f) =>
      f.matches.map((m): [string, number, string] => [
        f.path,
        m.line,
        m.ranges.map(([s, e]) => m.text.slice(s, e)).join('|'),
      ]),
    )
    .sort(([a, x], [b, y]) => a.localeCompare(b) || x - y);
}

// codex's server puts the rg it ships first on its children's PATH: against it, rg is always there.
const SERVERS = [
  { impl: 'tether', modes: MODES },
  { impl: 'codex', modes: MODES.slice(0, 1) },
] as const;

describe.each(SERVERS)('search on the $impl server', ({ impl, modes }) => {
  describe.each(modes)('with $name on the host', (mode) => {
    const rig: RemoteAppRig = remoteAppRig({ impl, serverEnv: { PATH: pathWith(mode.tools) } });

    it('lists the workspace for Quick open, skipping .git and node_modules, cached until a refresh', async () => {
      const root = makeWorkspace(rig.server.home);
      const listed = await rig.h.invoke('search.files', { envId: rig.envId, root });
      expect(listed.source).toBe(mode.files);
      expect(listed.root).toBe(root);
      const files = [...listed.files].sort();
      const expected = ['.gitignore', 'docs/guide.md', 'src/app/helper.ts', 'src/app/main.ts', HOSTILE];
      // rg and git leave out what .gitignore names; find and the walk do not read it.
      if (mode.files === 'find' || mode.files === 'walk') expected.push('build.log');
      expect(files).toEqual(expected.sort());
      // Only the walk knows it left a folder out for its depth (rg and find just stop there).
      expect(listed.truncated).toBe(mode.files === 'walk');

      writeFileSync(path.join(root, 'later.ts'), '');
      const cached = await rig.h.invoke('search.files', { envId: rig.envId, root });
      expect(cached.files).not.toContain('later.ts');
      expect(cached.listedAt).toBe(listed.listedAt);
      const fresh = await rig.h.invoke('search.files', { envId: rig.envId, root, refresh: true });
      expect(fresh.files).toContain('later.ts');

      await expect(
        rig.h.invoke('search.files', { envId: rig.envId, root: path.join(root, 'missing') }),
      ).rejects.toMatchObject({ code: 'notFound' });
    });

    it('finds in files on the host with its options, or says plainly that it cannot', async () => {
      const root = makeWorkspace(rig.server.home);
      const find = (options: {
        query: string;
        caseSensitive?: boolean;
        regex?: boolean;
        wholeWord?: boolean;
        include?: string;
      }) =>
        rig.h.invoke('search.text', { envId: rig.envId, root, searchId: `s-${Math.random()}`, ...options });
      if (mode.text === null) {
        const error = await find({ query: 'needle' }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(IpcError);
        expect(error).toMatchObject({
          code: 'unsupported',
          message: expect.stringMatching(/ripgrep \(rg\) or grep/),
        });
        return;
      }
      const at = (rel: string) => path.join(root, rel);
      const plain = await find({ query: 'needle' });
      expect(plain.tool).toBe(mode.text);
      expect(plain.stopped).toBeNull();
      const all: Array<[string, number, string]> = [
        [at('docs/guide.md'), 3, 'needle'],
        [at('src/app/helper.ts'), 1, 'Needle'],
        [at('src/app/helper.ts'), 2, 'needle|needle'],
        [at('src/app/main.ts'), 1, 'needle'],
        [at('src/app/main.ts'), 2, 'needle'],
        [at(HOSTILE), 1, 'needle'],
      ];
      // grep reads no .gitignore: the ignored log is searched too.
      if (mode.text === 'grep') all.push([at('build.log'), 1, 'needle']);
      expect(matchesOf(plain)).toEqual(all.sort(([a, x], [b, y]) => a.localeCompare(b) || x - y));
      expect(plain.totalMatches).toBe(all.length);

      const cased = await find({ query: 'Needle', caseSensitive: true });
      expect(matchesOf(cased)).toEqual([[at('src/app/helper.ts'), 1, 'Needle']]);
      const word = await find({ query: 'needle', wholeWord: true, include: '*.ts' });
      expect(matchesOf(word).map(([p, l]) => `${path.basename(p)}:${l}`)).toEqual([
        'helper.ts:1',
        'main.ts:1',
        'main.ts:2',
      ]);
      const regex = await find({ query: 'the ne+dle', regex: true, include: '*.md, *.txt' });
      expect(matchesOf(regex)).toEqual([[at('docs/guide.md'), 3, 'the needle']]);
      // Without regex, the same text is looked for literally; a query is never a shell word.
      expect((await find({ query: 'the ne+dle' })).totalMatches).toBe(0);
      expect((await find({ query: '$(touch pwned) `x` ; "' })).totalMatches).toBe(0);
      await expect(find({ query: '(', regex: true })).rejects.toMatchObject({ code: 'invalidInput' });
    });

    if (mode.text === null) return;

    it('sends at most the cap of matches and counts the rest', async () => {
      const root = makeWorkspace(rig.server.home);
      const files = Math.ceil((FIND_MAX_MATCHES * 1.5) / FIND_MAX_MATCHES_PER_FILE);
      for (let i = 0; i < files; i++) {
        writeFileSync(path.join(root, `many-${i}.txt`), 'needle\n'.repeat(FIND_MAX_MATCHES_PER_FILE + 10));
      }
      const result = await rig.h.invoke('search.text', {
        envId: rig.envId,
        root,
        searchId: 'big',
        query: 'needle',
        include: 'many-*',
      });
      expect(result.files.reduce((n, f) => n + f.matches.length, 0)).toBe(FIND_MAX_MATCHES);
      expect(result.totalMatches).toBe(files * FIND_MAX_MATCHES_PER_FILE);
    });
  });

  // Tether's server only: codex's would run its own rg rather than the stand-in.
  if (impl !== 'tether') return;
  describe('a search that takes long', () => {
    // A stand-in rg that hangs before searching: only search.cancel ends it in time.
    const rig = remoteAppRig({
      impl,
      serverEnv: { PATH: pathWith(['grep'], { rg: '#!/bin/sh\nexec /bin/sleep 120\n' }) },
    });

    it('is cancelled by search.cancel, answering with what it found so far', async () => {
      const root = makeWorkspace(rig.server.home);
      const started = Date.now();
      const searching = rig.h.invoke('search.text', {
        envId: rig.envId,
        root,
        searchId: 'slow',
        query: 'needle',
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await rig.h.invoke('search.cancel', { searchId: 'slow' });
      const result = await searching;
      expect(result).toMatchObject({ tool: 'rg', stopped: 'cancelled', totalMatches: 0 });
      expect(Date.now() - started).toBeLessThan(20_000);
    });
  });
});

describe('search on the Local environment', () => {
  it('lists and finds with the tools of this machine, through the stdio server the app starts', async () => {
    const local = await startLocalApp('tether-search-');
    try {
      const envId = (await local.h.invoke('environments.list', {}))[0]!.id;
      const root = makeWorkspace(local.dir);
      const listed = await local.h.invoke('search.files', { envId, root });
      expect(listed.source).toBe('rg');
      expect(listed.files).toContain(HOSTILE);
      const found = await local.h.invoke('search.text', { envId, root, searchId: 'local', query: 'strange' });
      expect(matchesOf(found)).toEqual([[path.join(root, HOSTILE), 1, 'strange']]);
    } finally {
      await local.close();
    }
  });
});
