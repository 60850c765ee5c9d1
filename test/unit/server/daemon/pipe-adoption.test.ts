// adoptPipes against a real process whose stdin and stdout are named pipes: the pipes it names are
// opened and carry bytes both ways; a request naming other pipes, or fds that are not pipes, is
// declined with the reason and leaves nothing open; the request line parses only when well formed.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  adoptPipes,
  encodeAdoptRequest,
  parseAdoptRequest,
  pipeIdentity,
  type AdoptRequest,
} from '../../../../electron/server/daemon/pipe-adoption';

const cleanups: Array<() => void> = [];
/** Our pipe ends now owned by a socket, which closes them. */
const wrapped = new Set<number>();
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  wrapped.clear();
});

/** A `sleep` whose stdin and stdout are named pipes; our ends of them, and its request. */
function sleeperOnPipes(): { child: ChildProcess; write: number; read: number; request: AdoptRequest } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-adopt-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const [inPath, outPath] = [path.join(dir, 'in'), path.join(dir, 'out')];
  execFileSync('mkfifo', [inPath, outPath]);
  const childIn = openSync(inPath, constants.O_RDONLY | constants.O_NONBLOCK);
  const write = openSync(inPath, constants.O_WRONLY);
  const read = openSync(outPath, constants.O_RDONLY | constants.O_NONBLOCK);
  const childOut = openSync(outPath, constants.O_WRONLY);
  const request: AdoptRequest = { pid: 0, stdin: pipeIdentity(childIn)!, stdout: pipeIdentity(childOut)! };
  const child = spawn('sleep', ['60'], { stdio: [childIn, childOut, 'ignore'] });
  closeSync(childIn);
  closeSync(childOut);
  cleanups.push(() => {
    child.kill('SIGKILL');
    for (const fd of [write, read]) if (!wrapped.has(fd)) closeSync(fd);
  });
  return { child, write, read, request: { ...request, pid: child.pid! } };
}

function openFdCount(): number {
  return readdirSync('/proc/self/fd').length;
}

describe('adoptPipes', () => {
  it("opens the process's own pipes, which carry bytes both ways", async () => {
    const { write, read, request } = sleeperOnPipes();
    const pipes = adoptPipes(request);
    if (typeof pipes === 'string') throw new Error(pipes);
    cleanups.push(() => {
      pipes.input.destroy();
      pipes.output.destroy();
    });
    // What the client writes to the process's stdin reaches the adopted input…
    const inbound = new Promise<string>((resolve) =>
      pipes.input.once('data', (d: Buffer) => resolve(d.toString())),
    );
    const ours = new net.Socket({ fd: write, readable: false, writable: true });
    const theirs = new net.Socket({ fd: read, readable: true, writable: false });
    wrapped.add(write).add(read);
    cleanups.push(() => {
      ours.destroy();
      theirs.destroy();
    });
    ours.write('to the daemon');
    expect(await inbound).toBe('to the daemon');
    // …and what the adopted output writes, the client reads from the process's stdout.
    const outbound = new Promise<string>((resolve) =>
      theirs.once('data', (d: Buffer) => resolve(d.toString())),
    );
    pipes.output.write('to the client');
    expect(await outbound).toBe('to the client');
  });

  it('declines pipes other than the ones named, and fds that are not pipes, leaving nothing open', () => {
    const { request } = sleeperOnPipes();
    const before = openFdCount();
    const swapped = adoptPipes({ ...request, stdin: request.stdout, stdout: request.stdin });
    expect(swapped).toBe(`fd 0 of pid ${request.pid} is not the pipe the request names`);
    const otherOut = adoptPipes({ ...request, stdout: { ...request.stdout, ino: request.stdout.ino + 1 } });
    expect(otherOut).toBe(`fd 1 of pid ${request.pid} is not the pipe the request names`);
    // Our own stdio under vitest is no pair of these pipes either.
    expect(typeof adoptPipes({ ...request, pid: process.pid })).toBe('string');
    expect(adoptPipes({ ...request, pid: 2 ** 30 })).toMatch(/^cannot open fd 0 of pid \d+: ENOENT$/);
    expect(openFdCount()).toBe(before);
  });
});

describe('the adoption request line', () => {
  it('parses only when well formed', () => {
    const request: AdoptRequest = { pid: 1234, stdin: { dev: 15, ino: 99 }, stdout: { dev: 15, ino: 100 } };
    const line = encodeAdoptRequest(request);
    expect(line.endsWith('\n')).toBe(true);
    expect(parseAdoptRequest(line.trimEnd())).toEqual(request);
    expect(parseAdoptRequest(line.trimEnd().replace('tether-adopt', 'tether-adapt'))).toBeNull();
    expect(
      parseAdoptRequest('tether-adopt {"pid":1,"stdin":{"dev":1,"ino":1},"stdout":{"dev":1,"ino":1}}'),
    ).toBeNull();
    expect(
      parseAdoptRequest('tether-adopt {"pid":5,"stdin":{"dev":1},"stdout":{"dev":1,"ino":1}}'),
    ).toBeNull();
    expect(parseAdoptRequest('tether-adopt not json')).toBeNull();
  });
});
