// Binary frames on a byte stream: the Tether client over stdio, with `tee` on both pipes recording
// what crosses them. Against Tether's server the stream switches to length-prefixed frames right
// after the initialize result, and output and input travel raw; against codex's server it stays
// newline-delimited JSON with base64 throughout. Byte-exact both ways in both cases.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { STREAM_FRAME_DATA, STREAM_FRAME_TEXT } from '../../../shared/protocol';
import { followProcess, within } from '../../chaos/process-follower';
import { serverCommand, type ServerImpl } from '../../support/exec-servers';

const DONE_MS = 30_000;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function shellQuote(args: string[]): string {
  return args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
}

interface Tapped {
  up: Buffer;
  down: Buffer;
}

/** The messages of a recorded stream: its JSON lines, then (once one starts) its frames. */
function messagesOf(bytes: Buffer): { lines: string[]; frames: Array<{ kind: number; body: Buffer }> } {
  const lines: string[] = [];
  const frames: Array<{ kind: number; body: Buffer }> = [];
  let at = 0;
  while (at < bytes.length && bytes[at] !== STREAM_FRAME_TEXT && bytes[at] !== STREAM_FRAME_DATA) {
    const newline = bytes.indexOf(0x0a, at);
    if (newline < 0) break;
    lines.push(bytes.toString('utf8', at, newline));
    at = newline + 1;
  }
  while (at + 5 <= bytes.length) {
    const kind = bytes[at]!;
    expect([STREAM_FRAME_TEXT, STREAM_FRAME_DATA]).toContain(kind);
    const length = bytes.readUInt32BE(at + 1);
    frames.push({ kind, body: bytes.subarray(at + 5, at + 5 + length) });
    at += 5 + length;
  }
  return { lines, frames };
}

async function run(impl: ServerImpl): Promise<{ tapped: Tapped; content: Buffer; typed: Buffer }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-stream-frames-'));
  dirs.push(dir);
  const { command, args } = serverCommand(impl);
  const up = path.join(dir, 'up.bin');
  const down = path.join(dir, 'down.bin');
  const client = new RemoteExecServerClient({
    transport: {
      kind: 'stdio',
      command: [
        '/bin/sh',
        '-c',
        `tee '${up}' | CODEX_HOME='${dir}' ${shellQuote([command, ...args, '--listen', 'stdio'])} | tee '${down}'`,
      ],
    },
  });
  try {
    await client.connect();
    // Output: every byte value, a few chunks' worth.
    const content = randomBytes(300_000);
    const file = path.join(dir, 'content.bin');
    writeFileSync(file, content);
    const cat = followProcess(
      await client.startProcess({
        argv: ['/bin/cat', file],
        cwd: dir,
        env: { PATH: '/usr/bin:/bin' },
        tty: false,
      }),
    );
    expect(await within(cat.finished, DONE_MS, 'cat closing')).toBe('closed');
    expect(cat.output().equals(content)).toBe(true);
    // Input: bytes that are not text, written to a head that echoes them back and ends.
    const typed = Buffer.concat([Buffer.from('typed-marker:'), randomBytes(64), Buffer.from([0, 10, 255])]);
    const handle = await client.startProcess({
      argv: ['/usr/bin/head', '-c', String(typed.length)],
      cwd: dir,
      env: { PATH: '/usr/bin:/bin' },
      tty: false,
      pipeStdin: true,
    });
    const echo = followProcess(handle);
    expect(await handle.write(typed)).toBe('accepted');
    expect(await within(echo.finished, DONE_MS, 'the echo closing')).toBe('closed');
    expect(echo.output().equals(typed)).toBe(true);
    return { tapped: { up: readFileSync(up), down: readFileSync(down) }, content, typed };
  } finally {
    await client.close();
  }
}

describe('binary frames over stdio', () => {
  it("Tether's server: frames right after the handshake, output and input raw", async () => {
    const { tapped, content, typed } = await run('tether');
    const up = messagesOf(tapped.up);
    const down = messagesOf(tapped.down);
    // Each side's last line is the handshake's; everything after it is a frame.
    expect(up.lines).toHaveLength(1);
    expect(JSON.parse(up.lines[0]!)).toMatchObject({
      method: 'initialize',
      params: { tetherBinaryFrames: true },
    });
    expect(down.lines).toHaveLength(1);
    expect(JSON.parse(down.lines[0]!)).toMatchObject({ result: { tetherBinaryFrames: true } });
    expect(up.frames.length).toBeGreaterThan(3);
    expect(down.frames.length).toBeGreaterThan(3);
    // The output's bytes are in data frames, never base64; the typed bytes went up raw.
    const downData = Buffer.concat(
      down.frames.filter((f) => f.kind === STREAM_FRAME_DATA).map((f) => f.body),
    );
    expect(downData.includes(content.subarray(0, 4096))).toBe(true);
    expect(tapped.down.includes(content.subarray(0, 3000).toString('base64'))).toBe(false);
    const writes = up.frames.filter((f) => f.kind === STREAM_FRAME_DATA);
    expect(writes.some((f) => f.body.includes(typed))).toBe(true);
    expect(tapped.up.includes(typed.toString('base64'))).toBe(false);
  });

  it("codex's server: newline-delimited JSON and base64 from start to end", async () => {
    const { tapped, typed } = await run('codex');
    for (const bytes of [tapped.up, tapped.down]) {
      const { lines, frames } = messagesOf(bytes);
      expect(frames).toEqual([]);
      // Nothing but lines: their bytes and newlines are the whole stream.
      expect(lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0)).toBe(bytes.length);
      for (const line of lines) JSON.parse(line);
    }
    expect(tapped.up.includes(typed.toString('base64'))).toBe(true);
  });
});
