// Conformance scenarios for the filesystem methods: whole-file calls, directories, metadata,
// remove/copy rules, canonicalize, walk, URI errors and connection-scoped streaming handles.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RpcPeer, RpcResponse } from '../support/rpc-peer';
import { b64, looseError, unb64, type Scenario, type ScenarioContext } from './scenario-kit';

/** Builds a small tree in the scratch dir: files, a nested dir, a dotfile and symlinks. */
function makeTree(ctx: ScenarioContext): void {
  const at = (p: string) => path.join(ctx.scratch, p);
  mkdirSync(at('tree/sub/deep'), { recursive: true });
  mkdirSync(at('tree/.hidden'), { recursive: true });
  writeFileSync(at('tree/a.txt'), 'hello world');
  writeFileSync(at('tree/sub/b.txt'), 'bee');
  writeFileSync(at('tree/sub/deep/c.txt'), 'sea');
  writeFileSync(at('tree/.dot'), '');
  writeFileSync(at('tree/.hidden/h.txt'), 'h');
  symlinkSync(at('tree/sub'), at('tree/link-dir'));
  symlinkSync(at('tree/a.txt'), at('tree/link-file'));
}

/** A response with list results sorted, for methods that return entries in no particular order. */
function sorted(response: RpcResponse, key: string): unknown {
  const result = response.result as { entries?: Array<Record<string, unknown>> } | undefined;
  if (!result?.entries) return response;
  const entries = [...result.entries].sort((a, b) => String(a[key]).localeCompare(String(b[key])));
  return { ...response, result: { ...result, entries } };
}

const walkOptions = (overrides: Record<string, unknown> = {}) => ({
  maxDepth: 10,
  maxDirectories: 100,
  maxEntries: 100,
  followDirectorySymlinks: false,
  ...overrides,
});

async function readFileText(peer: RpcPeer, uri: string): Promise<string> {
  const result = (await peer.call('fs/readFile', { path: uri })) as { dataBase64: string };
  return unb64(result.dataBase64);
}

export const fsScenarios: Scenario[] = [
  {
    name: 'fs: readFile and writeFile, with their errors',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      mkdirSync(path.join(ctx.scratch, 'dir'));
      ctx.record(
        'write',
        await peer.request('fs/writeFile', { path: ctx.uri('f.txt'), dataBase64: b64('data\n') }),
      );
      ctx.record('read', await peer.request('fs/readFile', { path: ctx.uri('f.txt') }));
      ctx.record(
        'truncate',
        await peer.request('fs/writeFile', { path: ctx.uri('f.txt'), dataBase64: b64('x') }),
      );
      ctx.record('on disk', readFileSync(path.join(ctx.scratch, 'f.txt'), 'utf8'));
      ctx.record('read missing', await peer.request('fs/readFile', { path: ctx.uri('missing') }));
      ctx.record('read directory', await peer.request('fs/readFile', { path: ctx.uri('dir') }));
      ctx.record(
        'write missing parent',
        await peer.request('fs/writeFile', { path: ctx.uri('no/f'), dataBase64: '' }),
      );
      ctx.record(
        'write onto directory',
        await peer.request('fs/writeFile', { path: ctx.uri('dir'), dataBase64: '' }),
      );
      ctx.record(
        'write bad base64',
        looseError(await peer.request('fs/writeFile', { path: ctx.uri('g'), dataBase64: '!!' })),
      );
      ctx.record(
        'binary round trip',
        await peer.request('fs/writeFile', {
          path: ctx.uri('bin'),
          dataBase64: b64(Buffer.from([0, 255, 128, 10])),
        }),
      );
      ctx.record('binary read', await peer.request('fs/readFile', { path: ctx.uri('bin') }));
    },
  },
  {
    name: 'fs: URI errors are -32602',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      ctx.record('plain path', await peer.request('fs/readFile', { path: '/etc/hostname' }));
      ctx.record('relative', await peer.request('fs/getMetadata', { path: 'a.txt' }));
      ctx.record('http scheme', await peer.request('fs/readFile', { path: 'http://example.com/x' }));
      ctx.record(
        'process cwd plain path',
        await peer.request('process/start', {
          processId: 'p',
          argv: ['/bin/true'],
          cwd: '/tmp',
          env: {},
          tty: false,
        }),
      );
      ctx.record('path not a string', looseError(await peer.request('fs/readFile', { path: 5 })));
    },
  },
  {
    name: 'fs: createDirectory defaults to recursive; getMetadata follows links',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      makeTree(ctx);
      ctx.record('nested', await peer.request('fs/createDirectory', { path: ctx.uri('x/y/z') }));
      ctx.record('existing', await peer.request('fs/createDirectory', { path: ctx.uri('x/y/z') }));
      ctx.record(
        'not recursive, missing parent',
        await peer.request('fs/createDirectory', { path: ctx.uri('m/n'), recursive: false }),
      );
      ctx.record(
        'not recursive',
        await peer.request('fs/createDirectory', { path: ctx.uri('m'), recursive: false }),
      );
      ctx.record('over a file', await peer.request('fs/createDirectory', { path: ctx.uri('tree/a.txt') }));
      ctx.record('meta file', await peer.request('fs/getMetadata', { path: ctx.uri('tree/a.txt') }));
      ctx.record('meta dir', await peer.request('fs/getMetadata', { path: ctx.uri('tree/sub') }));
      ctx.record(
        'meta link to file',
        await peer.request('fs/getMetadata', { path: ctx.uri('tree/link-file') }),
      );
      ctx.record(
        'meta link to dir',
        await peer.request('fs/getMetadata', { path: ctx.uri('tree/link-dir') }),
      );
      ctx.record('meta missing', await peer.request('fs/getMetadata', { path: ctx.uri('missing') }));
    },
  },
  {
    name: 'fs: readDirectory lists dotfiles and links; a file is not a directory',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      makeTree(ctx);
      ctx.record(
        'tree',
        sorted(await peer.request('fs/readDirectory', { path: ctx.uri('tree') }), 'fileName'),
      );
      ctx.record(
        'empty',
        await peer.request('fs/readDirectory', { path: ctx.uri('tree/.hidden/../sub/deep') }),
      );
      ctx.record('file', await peer.request('fs/readDirectory', { path: ctx.uri('tree/a.txt') }));
      ctx.record('missing', await peer.request('fs/readDirectory', { path: ctx.uri('missing') }));
    },
  },
  {
    name: 'fs: remove defaults to recursive and forced',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      makeTree(ctx);
      ctx.record('missing, default force', await peer.request('fs/remove', { path: ctx.uri('missing') }));
      ctx.record(
        'missing, force false',
        await peer.request('fs/remove', { path: ctx.uri('missing'), force: false }),
      );
      ctx.record(
        'non-empty, not recursive',
        await peer.request('fs/remove', { path: ctx.uri('tree/sub'), recursive: false }),
      );
      ctx.record(
        'link to dir removes the link',
        await peer.request('fs/remove', { path: ctx.uri('tree/link-dir') }),
      );
      ctx.record('target kept', await peer.request('fs/getMetadata', { path: ctx.uri('tree/sub/b.txt') }));
      ctx.record(
        'file',
        await peer.request('fs/remove', { path: ctx.uri('tree/a.txt'), recursive: false, force: false }),
      );
      ctx.record('tree', await peer.request('fs/remove', { path: ctx.uri('tree') }));
      ctx.record('gone', await peer.request('fs/getMetadata', { path: ctx.uri('tree') }));
    },
  },
  {
    name: 'fs: copy needs recursive for directories, refuses copying into itself, overwrites files',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      makeTree(ctx);
      writeFileSync(path.join(ctx.scratch, 'existing.txt'), 'old contents');
      const copy = (from: string, to: string, recursive?: boolean) =>
        peer.request('fs/copy', {
          sourcePath: ctx.uri(from),
          destinationPath: ctx.uri(to),
          ...(recursive === undefined ? {} : { recursive }),
        });
      ctx.record('file', await copy('tree/a.txt', 'copied.txt', false));
      ctx.record('file contents', await readFileText(peer, ctx.uri('copied.txt')));
      ctx.record('overwrite', await copy('tree/sub/b.txt', 'existing.txt', false));
      ctx.record('overwritten', await readFileText(peer, ctx.uri('existing.txt')));
      ctx.record('dir without recursive', await copy('tree/sub', 'sub-copy', false));
      ctx.record('missing recursive', looseError(await copy('tree/a.txt', 'z.txt')));
      ctx.record('dir recursive', await copy('tree/sub', 'sub-copy', true));
      ctx.record(
        'copied tree',
        sorted(await peer.request('fs/readDirectory', { path: ctx.uri('sub-copy') }), 'fileName'),
      );
      ctx.record('deep file', await readFileText(peer, ctx.uri('sub-copy/deep/c.txt')));
      ctx.record('into itself', await copy('tree', 'tree/inner', true));
      ctx.record('missing source', await copy('missing', 'x', false));
      ctx.record('file symlink copied as link', await copy('tree/link-file', 'link-copy', false));
      ctx.record('link copy metadata', await peer.request('fs/getMetadata', { path: ctx.uri('link-copy') }));
    },
  },
  {
    name: 'fs: canonicalize resolves .. and symlinks; the path must exist',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      makeTree(ctx);
      ctx.record('dots', await peer.request('fs/canonicalize', { path: ctx.uri('tree/sub/../a.txt') }));
      ctx.record('symlink', await peer.request('fs/canonicalize', { path: ctx.uri('tree/link-dir/deep') }));
      ctx.record('missing', await peer.request('fs/canonicalize', { path: ctx.uri('tree/missing') }));
    },
  },
  {
    name: 'fs: walk breadth-first with depth, caps, hidden pruning and symlink rules',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      makeTree(ctx);
      const walk = async (options: Record<string, unknown>, root = 'tree') =>
        sorted(await peer.request('fs/walk', { path: ctx.uri(root), options: walkOptions(options) }), 'path');
      ctx.record('full', await walk({}));
      ctx.record('depth 0', await walk({ maxDepth: 0 }));
      ctx.record('depth 1', await walk({ maxDepth: 1 }));
      ctx.record('follow links', await walk({ followDirectorySymlinks: true }));
      ctx.record('prune hidden', await walk({ pruneHiddenDirectories: true }));
      const capped = (await peer.call('fs/walk', {
        path: ctx.uri('tree'),
        options: walkOptions({ maxEntries: 2 }),
      })) as {
        entries: unknown[];
        truncated: boolean;
      };
      ctx.record('maxEntries 2', { count: capped.entries.length, truncated: capped.truncated });
      ctx.record('file root', await walk({}, 'tree/a.txt'));
      ctx.record('missing root', await walk({}, 'missing'));
      ctx.record('options missing', looseError(await peer.request('fs/walk', { path: ctx.uri('tree') })));
    },
  },
  {
    name: 'fs: streaming handles read, replace, errors and close',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      makeTree(ctx);
      ctx.record('open read', await peer.request('fs/open', { handleId: 'r', path: ctx.uri('tree/a.txt') }));
      ctx.record('block', await peer.request('fs/readBlock', { handleId: 'r', offset: 6, len: 3 }));
      ctx.record('block to end', await peer.request('fs/readBlock', { handleId: 'r', offset: 6, len: 100 }));
      ctx.record('past end', await peer.request('fs/readBlock', { handleId: 'r', offset: 50, len: 4 }));
      ctx.record('len 0', await peer.request('fs/readBlock', { handleId: 'r', offset: 0, len: 0 }));
      ctx.record(
        'len too big',
        await peer.request('fs/readBlock', { handleId: 'r', offset: 0, len: 1_048_577 }),
      );
      ctx.record(
        'write on read handle',
        await peer.request('fs/writeBlock', { handleId: 'r', offset: 0, chunk: b64('x') }),
      );
      ctx.record(
        'duplicate handle',
        await peer.request('fs/open', { handleId: 'r', path: ctx.uri('tree/a.txt') }),
      );
      ctx.record(
        'open replace',
        await peer.request('fs/open', { handleId: '', path: ctx.uri('out.bin'), mode: 'replace' }),
      );
      ctx.record(
        'write at 0',
        await peer.request('fs/writeBlock', { handleId: '', offset: 0, chunk: b64('abc') }),
      );
      ctx.record(
        'write with gap',
        await peer.request('fs/writeBlock', { handleId: '', offset: 5, chunk: b64('z') }),
      );
      ctx.record('empty write', await peer.request('fs/writeBlock', { handleId: '', offset: 0, chunk: '' }));
      ctx.record(
        'read on replace handle',
        await peer.request('fs/readBlock', { handleId: '', offset: 0, len: 1 }),
      );
      ctx.record('close', await peer.request('fs/close', { handleId: '' }));
      ctx.record('close again', await peer.request('fs/close', { handleId: '' }));
      ctx.record('file', [...readFileSync(path.join(ctx.scratch, 'out.bin'))]);
      ctx.record('closed handle', await peer.request('fs/readBlock', { handleId: '', offset: 0, len: 1 }));
      ctx.record(
        'unknown handle',
        await peer.request('fs/readBlock', { handleId: 'nope', offset: 0, len: 1 }),
      );
      ctx.record(
        'unknown handle write',
        await peer.request('fs/writeBlock', { handleId: 'nope', offset: 0, chunk: b64('x') }),
      );
      ctx.record('open directory', await peer.request('fs/open', { handleId: 'd', path: ctx.uri('tree') }));
      ctx.record('open missing', await peer.request('fs/open', { handleId: 'm', path: ctx.uri('missing') }));
      ctx.record(
        'bad mode',
        looseError(
          await peer.request('fs/open', { handleId: 'b', path: ctx.uri('tree/a.txt'), mode: 'append' }),
        ),
      );
      ctx.record('close unknown', await peer.request('fs/close', { handleId: 'never' }));
    },
  },
  {
    name: 'fs: file handles die with the connection even when the session resumes',
    transports: ['ws'],
    run: async (ctx) => {
      const first = await ctx.session();
      makeTree(ctx);
      await first.peer.call('fs/open', { handleId: 'h', path: ctx.uri('tree/a.txt') });
      ctx.record(
        'read before',
        await first.peer.request('fs/readBlock', { handleId: 'h', offset: 0, len: 5 }),
      );
      await first.peer.close();
      const second = await ctx.connect();
      ctx.record(
        'resume',
        await second.request('initialize', { clientName: 'c', resumeSessionId: first.sessionId }),
      );
      second.notify('initialized');
      ctx.record(
        'read after resume',
        await second.request('fs/readBlock', { handleId: 'h', offset: 0, len: 5 }),
      );
      ctx.record(
        'reopen same id',
        await second.request('fs/open', { handleId: 'h', path: ctx.uri('tree/a.txt') }),
      );
    },
  },
];
