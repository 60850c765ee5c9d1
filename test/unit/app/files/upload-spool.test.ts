// UploadSpool: a new pass replays what earlier passes handed on, then continues with the live
// source; the spool is private to the user and gone after dispose.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UploadBuffer } from '../../../../electron/app/files/upload-buffer';
import { UploadSpool } from '../../../../electron/app/files/upload-spool';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function bytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 13 + seed) % 256;
  return out;
}

async function take(pass: AsyncGenerator<Uint8Array>, count: number): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const next = await pass.next();
    if (next.done) break;
    parts.push(next.value);
  }
  return Buffer.concat(parts);
}

describe('UploadSpool', () => {
  it('replays what was handed on, then continues with the live chunks, and cleans up', async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'tether-spool-test-'));
    dirs.push(parent);
    const chunks = [bytes(700_000, 1), bytes(1_500_000, 2), bytes(10, 3), bytes(300_000, 4)];
    const total = chunks.reduce((n, c) => n + c.byteLength, 0);
    const live = new UploadBuffer(total, 64 * 1024 * 1024);
    let offset = 0;
    for (const [i, chunk] of chunks.entries()) {
      await live.push(offset, chunk, i === chunks.length - 1);
      offset += chunk.byteLength;
    }
    const spool = new UploadSpool(live, parent);

    // First pass: two chunks go out, then the write is cut off and the pass abandoned.
    const first = spool.pass();
    expect((await take(first, 2)).equals(Buffer.concat(chunks.slice(0, 2)))).toBe(true);
    await first.return(undefined);
    expect(spool.bytes).toBe(2_200_000);
    const [spoolDir] = readdirSync(parent);
    expect(statSync(path.join(parent, spoolDir!)).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(parent, spoolDir!, 'spool')).mode & 0o777).toBe(0o600);

    // Second pass: the 2.2 MB again (in blocks of at most 1 MiB), then one more live chunk.
    const second = spool.pass();
    const replayed = await take(second, 4);
    expect(replayed.equals(Buffer.concat(chunks.slice(0, 3)))).toBe(true);
    await second.return(undefined);

    // Third pass runs to the end: every byte exactly once, in order.
    const all: Uint8Array[] = [];
    for await (const chunk of spool.pass()) all.push(chunk);
    expect(Buffer.concat(all).equals(Buffer.concat(chunks))).toBe(true);

    await spool.dispose();
    expect(readdirSync(parent)).toEqual([]);
  });

  it('lets the upload go on when the copy cannot be kept, and only refuses to start over', async () => {
    const chunks = [bytes(1000, 1), bytes(2000, 2)];
    const live = new UploadBuffer(3000, 1024 * 1024);
    await live.push(0, chunks[0]!, false);
    await live.push(1000, chunks[1]!, true);
    const spool = new UploadSpool(live, path.join(os.tmpdir(), 'tether-no-such-parent', 'deeper'));
    const first: Uint8Array[] = [];
    for await (const chunk of spool.pass()) first.push(chunk);
    expect(Buffer.concat(first).equals(Buffer.concat(chunks))).toBe(true);
    await expect(spool.pass().next()).rejects.toThrow(/cannot start over .*ENOENT.*Upload it again/);
    await spool.dispose();
  });
});
