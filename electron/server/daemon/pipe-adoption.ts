// Pipe adoption: a bridge whose stdin and stdout are pipes (what `docker exec -i`, `podman exec -i`,
// kubectl and sshd give the command they run) asks the daemon to take those pipes over instead of
// relaying them. The daemon opens the bridge's own pipes through /proc/PID/fd and serves the link on
// them itself, so output no longer passes one more process (read, copy, write) on its way out; the
// bridge then only waits, holding the exec session open, until the daemon closes its socket.
//
// The request names the bridge's pid and the identity (device, inode) of both pipes; the daemon
// opens /proc/PID/fd/0 and /1 and checks that they are those very pipes, so a pid that means another
// process (another pid namespace sharing the run directory, a pid reused) is declined, never served.
// Both sides run as the same user behind the run directory's 0700 (private-dir.ts). Anything short
// of a clean adoption is declined with a reason, and the bridge relays as before.
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import net from 'node:net';

/** First line a bridge sends to ask for adoption; no JSON-RPC message starts this way. */
export const ADOPT_REQUEST_PREFIX = 'tether-adopt ';
/** The daemon's answers: the first, or the second with a reason. */
export const ADOPTED_REPLY = 'adopted';
export const DECLINED_REPLY = 'declined';
/** What an adopted bridge says on stderr (the client's log shows it). */
export const ADOPTED_LOG_LINE = "the daemon serves this session's pipes itself";
/** A request line is short; a longer first line is not one. */
export const ADOPT_REQUEST_MAX_BYTES = 512;

export interface PipeIdentity {
  dev: number;
  ino: number;
}

export interface AdoptRequest {
  pid: number;
  stdin: PipeIdentity;
  stdout: PipeIdentity;
}

/** The pipe behind `fd`, or null when it is not a pipe (a socket, a terminal, a file). */
export function pipeIdentity(fd: number): PipeIdentity | null {
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() ? { dev: stat.dev, ino: stat.ino } : null;
  } catch {
    return null;
  }
}

/** This process's request, when both its stdin and its stdout are pipes. */
export function ownAdoptRequest(): AdoptRequest | null {
  const stdin = pipeIdentity(0);
  const stdout = pipeIdentity(1);
  return stdin && stdout ? { pid: process.pid, stdin, stdout } : null;
}

export function encodeAdoptRequest(request: AdoptRequest): string {
  return `${ADOPT_REQUEST_PREFIX}${JSON.stringify(request)}\n`;
}

function isIdentity(value: unknown): value is PipeIdentity {
  const v = value as PipeIdentity | null;
  return typeof v === 'object' && v !== null && Number.isSafeInteger(v.dev) && Number.isSafeInteger(v.ino);
}

/** The request in a first line (without its newline), or null when it is not a well-formed one. */
export function parseAdoptRequest(line: string): AdoptRequest | null {
  if (!line.startsWith(ADOPT_REQUEST_PREFIX)) return null;
  try {
    const value = JSON.parse(line.slice(ADOPT_REQUEST_PREFIX.length)) as Partial<AdoptRequest>;
    if (!Number.isSafeInteger(value.pid) || (value.pid ?? 0) <= 1) return null;
    if (!isIdentity(value.stdin) || !isIdentity(value.stdout)) return null;
    return { pid: value.pid!, stdin: value.stdin, stdout: value.stdout };
  } catch {
    return null;
  }
}

/** Opens `/proc/PID/fd/N` without blocking and checks it is the pipe named; the fd, or why not. */
function openPipe(pid: number, fd: 0 | 1, expected: PipeIdentity): number | string {
  const flags = (fd === 0 ? constants.O_RDONLY : constants.O_WRONLY) | constants.O_NONBLOCK; // libuv adds O_CLOEXEC
  let opened: number;
  try {
    opened = openSync(`/proc/${pid}/fd/${fd}`, flags);
  } catch (error) {
    return `cannot open fd ${fd} of pid ${pid}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
  const actual = pipeIdentity(opened);
  if (!actual || actual.dev !== expected.dev || actual.ino !== expected.ino) {
    closeSync(opened);
    return `fd ${fd} of pid ${pid} is not the pipe the request names`;
  }
  return opened;
}

export interface AdoptedPipes {
  /** What the client sends (the bridge's stdin). */
  input: net.Socket;
  /** Where the client reads (the bridge's stdout). */
  output: net.Socket;
}

/** Both of the bridge's pipes, opened and checked, as streams; or the reason they cannot be. */
export function adoptPipes(request: AdoptRequest): AdoptedPipes | string {
  const inputFd = openPipe(request.pid, 0, request.stdin);
  if (typeof inputFd === 'string') return inputFd;
  const outputFd = openPipe(request.pid, 1, request.stdout);
  if (typeof outputFd === 'string') {
    closeSync(inputFd);
    return outputFd;
  }
  // net.Socket over a pipe's fd is libuv's pipe stream: reads and writes without the thread pool,
  // with backpressure, closed with the socket.
  return {
    input: new net.Socket({ fd: inputFd, readable: true, writable: false }),
    output: new net.Socket({ fd: outputFd, readable: false, writable: true }),
  };
}
