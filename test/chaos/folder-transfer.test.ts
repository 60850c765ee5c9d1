// Folder copies (what `tether cp -r` runs) against both servers. Through a link with 40 ms RTT
// that is cut while several files and blocks are in flight, a tree of large and small files lands
// byte-exact both ways, every block and whole file the client wrote carried the source's bytes for
// its place, and no staged or partial file is left on either side. And small files go many at a
// time: counted at the client's fs calls while the link is stalled, so it is not a timing claim.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { download, FILES_IN_FLIGHT, upload, type CopyJob } from '../../electron/client/files/copy-files';
import type { RemoteExecServerClient } from '../../electron/client/link/remote-client';
import { RemoteFileSystem, type RemoteFileSystemOps } from '../../electron/client/files/remote-file-system';
import { Method } from '../../shared/protocol';
import type { ServerImpl } from '../support/exec-servers';
import type { FaultProxy } from '../support/fault-proxy';
import { waitFor } from '../integration/client/helpers';
import { chaosRig } from './rig';

const MiB = 1_048_576;
const ONE_WAY_DELAY_MS = 20;
const WHOLE_FILE_CALLS = new Set<string>([Method.fsReadFile, Method.fsWriteFile]);
const BLOCK_CALLS = new Set<string>([Method.fsReadBlock, Method.fsWriteBlock]);
const STAGING = /tether-(upload|part)-/;
const SMALL_FILES = 160;

function sha(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Every file under `dir` (relative path → sha256), folders as 'dir'. */
function tree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix + entry.name;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(out, { [rel]: 'dir' }, tree(full, `${rel}/`));
    else out[rel] = sha(readFileSync(full));
  }
  return out;
}

/** A project folder: a few files of several blocks, many small ones, an empty one, odd names. */
function makeProject(root: string): void {
  mkdirSync(path.join(root, 'src', 'ünï côde', 'deep'), { recursive: true });
  mkdirSync(path.join(root, 'empty folder'));
  writeFileSync(path.join(root, 'empty.txt'), '');
  for (let i = 0; i < 3; i++) writeFileSync(path.join(root, `big ${i}.bin`), randomBytes(3 * MiB + 1000 * i));
  // Enough small files that, after the first cut, more than a full set of them is still to go.
  for (let i = 0; i < SMALL_FILES; i++) {
    const dir =
      i % 3 === 0 ? 'src' : i % 3 === 1 ? path.join('src', 'ünï côde') : path.join('src', 'ünï côde', 'deep');
    writeFileSync(path.join(root, dir, `file ${i}.txt`), randomBytes(1 + ((i * 977) % 8_000)));
  }
}

interface Seen {
  /** fs calls sent so far. */
  calls: number;
  /** Whole-file reads and writes in flight now, and the most at once. */
  wholeInFlight: number;
  maxWholeInFlight: number;
  /** Block reads and writes in flight now. */
  blocksInFlight: number;
  /** Every write the client sent: the remote path, the offset and the bytes' hash. */
  writes: Array<{ path: string; offset: number; bytes: number; sha: string }>;
}

/** The client's own fs calls, counted as they go; `beforeCall` may cut the link meanwhile. */
function observedFs(client: RemoteExecServerClient, beforeCall: (method: string, seen: Seen) => void) {
  const seen: Seen = { calls: 0, wholeInFlight: 0, maxWholeInFlight: 0, blocksInFlight: 0, writes: [] };
  const handles = new Map<string, string>();
  const ops: RemoteFileSystemOps = {
    hasCapability: (name) => client.hasCapability(name),
    callOnce: async (method, params) => {
      const p = params as Record<string, unknown>;
      if (method === Method.fsOpen) handles.set(p.handleId as string, p.path as string);
      if (method === Method.fsWriteBlock) {
        const data = Buffer.from(p.chunk as string, 'base64');
        const file = handles.get(p.handleId as string) ?? '?';
        seen.writes.push({ path: file, offset: p.offset as number, bytes: data.length, sha: sha(data) });
      }
      if (method === Method.fsWriteFile) {
        const data = Buffer.from(p.dataBase64 as string, 'base64');
        seen.writes.push({ path: p.path as string, offset: 0, bytes: data.length, sha: sha(data) });
      }
      const whole = WHOLE_FILE_CALLS.has(method);
      const block = BLOCK_CALLS.has(method);
      seen.calls++;
      beforeCall(method, seen);
      if (whole) seen.maxWholeInFlight = Math.max(seen.maxWholeInFlight, ++seen.wholeInFlight);
      if (block) seen.blocksInFlight++;
      try {
        return await client.callOnce(method, params);
      } finally {
        if (whole) seen.wholeInFlight--;
        if (block) seen.blocksInFlight--;
      }
    },
  };
  return { fs: new RemoteFileSystem(ops), seen };
}

/** A copy job that collects what failed. */
function jobFor(fs: RemoteFileSystem): { job: CopyJob; failures: string[] } {
  const failures: string[] = [];
  const job: CopyJob = {
    fs,
    recursive: true,
    progress: {
      started: () => undefined,
      advanced: () => undefined,
      failed: (name, reason) => failures.push(`${name}: ${reason}`),
      refused: (name, reason) => failures.push(`${name}: ${reason}`),
    },
  };
  return { job, failures };
}

/** The source file a remote path written by an upload stands for (a staged name is beside it). */
function sourceOf(remoteUri: string, remoteRoot: string, localRoot: string): string {
  const remotePath = decodeURIComponent(new URL(remoteUri).pathname);
  const { dir, base } = path.parse(remotePath);
  const staged = /^\.(.*)\.tether-upload-[0-9a-f]+$/.exec(base);
  return path.join(localRoot, path.relative(remoteRoot, path.join(dir, staged ? staged[1]! : base)));
}

/** Cuts the link once many files are under way, and once blocks of a large file are in flight. */
function cutter(proxy: FaultProxy, client: RemoteExecServerClient) {
  const cuts: Array<'files' | 'blocks'> = [];
  const cut = (reason: 'files' | 'blocks'): void => {
    cuts.push(reason);
    // After this call has gone out, so it is one of those cut off.
    queueMicrotask(() => proxy.cutAll());
  };
  const beforeCall = (method: string, seen: Seen): void => {
    // One cut per connection: the next waits until the client has reconnected after the last.
    if (client.health().reconnectCount < cuts.length) return;
    const byFiles = cuts.filter((c) => c === 'files').length;
    const byBlocks = cuts.filter((c) => c === 'blocks').length;
    if (
      byFiles < 2 &&
      WHOLE_FILE_CALLS.has(method) &&
      seen.wholeInFlight >= 4 &&
      seen.calls > 20 * (byFiles + 1)
    ) {
      cut('files');
    } else if (byBlocks < 2 && BLOCK_CALLS.has(method) && seen.blocksInFlight >= 2) {
      cut('blocks');
    }
  };
  return { cuts, beforeCall };
}

describe.each<ServerImpl>(['tether', 'codex'])('folder copies against %s', (impl) => {
  const rig = chaosRig();

  async function setup(): Promise<{ proxy: FaultProxy; home: string; client: RemoteExecServerClient }> {
    const { server, proxy } = await rig.serve(impl);
    const client = rig.client(proxy);
    await client.connect();
    return { proxy, home: server.home, client };
  }

  it('an upload cut with several files and blocks in flight lands byte-exact, nothing staged left', async () => {
    const { proxy, home, client } = await setup();
    proxy.setLatency(ONE_WAY_DELAY_MS);
    const local = path.join(home, 'local', 'project');
    const remote = path.join(home, 'remote');
    makeProject(local);
    mkdirSync(remote);
    const { cuts, beforeCall } = cutter(proxy, client);
    const { fs, seen } = observedFs(client, beforeCall);
    const { job, failures } = jobFor(fs);
    await upload(job, local, remote);
    expect(failures).toEqual([]);
    expect(tree(path.join(remote, 'project'))).toEqual(tree(local));
    expect(Object.keys(tree(remote)).filter((name) => STAGING.test(name))).toEqual([]);
    // Two cuts with four or more whole files in flight, two with two or more blocks in flight.
    expect([...cuts].sort()).toEqual(['blocks', 'blocks', 'files', 'files']);
    expect(client.health().reconnectCount).toBe(cuts.length);
    // Whatever was written again after a cut, each write carried its source's bytes for its place.
    for (const write of seen.writes) {
      const source = readFileSync(sourceOf(write.path, remote, path.dirname(local)));
      const expected = sha(source.subarray(write.offset, write.offset + write.bytes));
      expect(write.sha, `${write.path} at ${write.offset}`).toBe(expected);
    }
  });

  it('a download cut with several files and blocks in flight lands byte-exact, nothing partial left', async () => {
    const { proxy, home, client } = await setup();
    proxy.setLatency(ONE_WAY_DELAY_MS);
    const remote = path.join(home, 'remote', 'project');
    const local = path.join(home, 'local');
    makeProject(remote);
    mkdirSync(local);
    const { cuts, beforeCall } = cutter(proxy, client);
    const { fs } = observedFs(client, beforeCall);
    const { job, failures } = jobFor(fs);
    await download(job, remote, local);
    expect(failures).toEqual([]);
    expect(tree(path.join(local, 'project'))).toEqual(tree(remote));
    expect(Object.keys(tree(local)).filter((name) => STAGING.test(name))).toEqual([]);
    // Two cuts with four or more whole files in flight, two with two or more blocks in flight.
    expect([...cuts].sort()).toEqual(['blocks', 'blocks', 'files', 'files']);
    expect(client.health().reconnectCount).toBe(cuts.length);
  });

  it.each(['upload', 'download'] as const)(
    'a %s of many small files has many of them in flight at once',
    async (direction) => {
      const { proxy, home, client } = await setup();
      const local = path.join(home, 'local');
      const remote = path.join(home, 'remote');
      const source = path.join(direction === 'upload' ? local : remote, 'many');
      mkdirSync(source, { recursive: true });
      mkdirSync(direction === 'upload' ? remote : local, { recursive: true });
      for (let i = 0; i < 2 * FILES_IN_FLIGHT; i++)
        writeFileSync(path.join(source, `f${i}`), randomBytes(4096));
      // The link stalls at the first whole file: whatever goes out after it was sent without waiting.
      let stalled = false;
      const { fs, seen } = observedFs(client, (method) => {
        if (stalled || !WHOLE_FILE_CALLS.has(method)) return;
        stalled = true;
        proxy.stall();
      });
      const { job, failures } = jobFor(fs);
      const copying = direction === 'upload' ? upload(job, source, remote) : download(job, source, local);
      await waitFor(`${FILES_IN_FLIGHT} files in flight`, () => seen.wholeInFlight >= FILES_IN_FLIGHT);
      proxy.restore();
      await copying;
      expect(failures).toEqual([]);
      const copied = path.join(direction === 'upload' ? remote : local, 'many');
      expect(tree(copied)).toEqual(tree(source));
      expect(seen.maxWholeInFlight).toBe(FILES_IN_FLIGHT);
    },
  );
});
