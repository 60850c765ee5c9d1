import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FsErrorKind } from '../../../shared/protocol';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { RpcPeer } from '../../support/rpc-peer';

let server: StartedServer;
let c: RpcPeer;
let dir: string;
const uri = (...parts: string[]): string => pathToFileURL(path.join(dir, ...parts)).href;
const b64 = (text: string): string => Buffer.from(text).toString('base64');

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tether-fs-'));
  server = await startServer('tether', 'ws');
  c = await RpcPeer.connectWs(server.url!, { headers: server.authHeaders() });
  await c.handshake();
});

afterAll(async () => {
  c.drop();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('fs methods', () => {
  it('writes, reads, stats and lists files with codex errors', async () => {
    await c.call('fs/writeFile', { path: uri('a.txt'), dataBase64: b64('hello world') });
    expect(await c.call('fs/readFile', { path: uri('a.txt') })).toEqual({ dataBase64: b64('hello world') });
    expect(await c.call('fs/getMetadata', { path: uri('a.txt') })).toMatchObject({
      isFile: true,
      isDirectory: false,
      isSymlink: false,
      size: 11,
    });
    expect((await c.request('fs/readFile', { path: uri('missing') })).error).toEqual({
      code: -32004,
      message: 'No such file or directory (os error 2)',
    });
    expect((await c.request('fs/readFile', { path: uri() })).error).toEqual({
      code: -32600,
      message: `path \`${dir}\` is not a file`,
    });
    expect((await c.request('fs/readDirectory', { path: uri('a.txt') })).error).toEqual({
      code: -32603,
      message: 'Not a directory (os error 20)',
    });
    expect((await c.request('fs/writeFile', { path: uri('b'), dataBase64: '!!' })).error?.code).toBe(-32600);
    expect((await c.request('fs/readFile', { path: 'relative' })).error?.code).toBe(-32602);
    await c.call('fs/createDirectory', { path: uri('d', 'e') });
    const listing = (await c.call('fs/readDirectory', { path: uri() })).entries as { fileName: string }[];
    expect(listing.map((e) => e.fileName).sort()).toEqual(['a.txt', 'd']);
  });

  it('reads whole files of every size byte-exact, from empty to past one read buffer', async () => {
    for (const size of [0, 1, 4096, 64 * 1024 + 1, 1024 * 1024 + 3, 3 * 1024 * 1024 + 17]) {
      const data = Buffer.alloc(size);
      for (let i = 0; i < size; i++) data[i] = (i * 7 + size) & 0xff;
      writeFileSync(path.join(dir, `sized-${size}`), data);
      const { dataBase64 } = (await c.call('fs/readFile', { path: uri(`sized-${size}`) })) as {
        dataBase64: string;
      };
      expect(Buffer.from(dataBase64, 'base64').equals(data), `a file of ${size} bytes`).toBe(true);
    }
  });

  it('copies, renames, removes and canonicalizes with codex defaults', async () => {
    mkdirSync(path.join(dir, 'tree', 'sub'), { recursive: true });
    writeFileSync(path.join(dir, 'tree', 'sub', 'f'), 'x');
    expect(
      (await c.request('fs/copy', { sourcePath: uri('tree'), destinationPath: uri('t2'), recursive: false }))
        .error?.message,
    ).toBe('fs/copy requires recursive: true when sourcePath is a directory');
    await c.call('fs/copy', { sourcePath: uri('tree'), destinationPath: uri('t2'), recursive: true });
    expect(readFileSync(path.join(dir, 't2', 'sub', 'f'), 'utf8')).toBe('x');
    await c.call('fs/rename', { sourcePath: uri('t2'), destinationPath: uri('t3') });
    expect((await c.request('fs/remove', { path: uri('t3'), recursive: false })).error?.message).toBe(
      'Directory not empty (os error 39)',
    );
    await c.call('fs/remove', { path: uri('t3') });
    await c.call('fs/remove', { path: uri('t3') });
    expect((await c.request('fs/remove', { path: uri('t3'), force: false })).error?.code).toBe(-32004);
    symlinkSync(path.join(dir, 'tree'), path.join(dir, 'link'));
    expect(await c.call('fs/canonicalize', { path: uri('link', 'sub', '..') })).toEqual({
      path: uri('tree'),
    });
  });

  it('fs/rename refuses a taken name with noReplace and hands over the mode with keepDestinationMode', async () => {
    writeFileSync(path.join(dir, 'old'), 'old');
    chmodSync(path.join(dir, 'old'), 0o751);
    writeFileSync(path.join(dir, 'new'), 'new');
    mkdirSync(path.join(dir, 'folder'));
    for (const source of ['new', 'folder']) {
      const refused = await c.request('fs/rename', {
        sourcePath: uri(source),
        destinationPath: uri('old'),
        noReplace: true,
      });
      expect(refused.error?.message).toBe('File exists (os error 17)');
      expect(refused.error?.data).toEqual({ kind: FsErrorKind.exists });
    }
    expect(readFileSync(path.join(dir, 'old'), 'utf8')).toBe('old');
    await c.call('fs/rename', {
      sourcePath: uri('folder'),
      destinationPath: uri('folder2'),
      noReplace: true,
    });
    expect(statSync(path.join(dir, 'folder2')).isDirectory()).toBe(true);
    await c.call('fs/rename', {
      sourcePath: uri('new'),
      destinationPath: uri('old'),
      keepDestinationMode: true,
    });
    expect(readFileSync(path.join(dir, 'old'), 'utf8')).toBe('new');
    expect(statSync(path.join(dir, 'old')).mode & 0o777).toBe(0o751);
  });

  it('walks breadth-first within limits', async () => {
    const walk = await c.call('fs/walk', {
      path: uri('tree'),
      options: { maxDepth: 5, maxDirectories: 10, maxEntries: 10, followDirectorySymlinks: false },
    });
    expect(walk).toEqual({
      entries: [
        { path: uri('tree', 'sub'), kind: 'directory' },
        { path: uri('tree', 'sub', 'f'), kind: 'file' },
      ],
      errors: [],
      truncated: false,
    });
    const capped = await c.call('fs/walk', {
      path: uri('tree'),
      options: { maxDepth: 5, maxDirectories: 10, maxEntries: 1, followDirectorySymlinks: false },
    });
    expect(capped.truncated).toBe(true);
  });

  it('streams through connection-scoped file handles', async () => {
    await c.call('fs/open', { handleId: 'w', path: uri('big.bin'), mode: 'replace' });
    await c.call('fs/writeBlock', { handleId: 'w', offset: 4, chunk: b64('data') });
    expect((await c.request('fs/readBlock', { handleId: 'w', offset: 0, len: 4 })).error?.message).toBe(
      'Bad file descriptor (os error 9)',
    );
    await c.call('fs/close', { handleId: 'w' });
    await c.call('fs/close', { handleId: 'w' });
    await c.call('fs/open', { handleId: 'r', path: uri('big.bin') });
    expect((await c.request('fs/open', { handleId: 'r', path: uri('big.bin') })).error?.message).toBe(
      'file handle `r` already exists',
    );
    expect(await c.call('fs/readBlock', { handleId: 'r', offset: 0, len: 100 })).toEqual({
      chunk: Buffer.from('\0\0\0\0data').toString('base64'),
      eof: true,
    });
    expect((await c.request('fs/readBlock', { handleId: 'r', offset: 0, len: 0 })).error?.code).toBe(-32600);
    expect((await c.request('fs/readBlock', { handleId: 'nope', offset: 0, len: 1 })).error).toEqual({
      code: -32004,
      message: 'unknown file handle `nope`',
      data: { kind: FsErrorKind.unknownFileHandle },
    });
  });
});
