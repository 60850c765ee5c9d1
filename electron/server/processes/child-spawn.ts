// Starts one OS process for `process/start`, under a pty (node-pty) or with pipes, in its own
// process group, and exposes a small uniform handle: raw output bytes, stdin, pause/resume,
// resize and group signals. Spawn failures become -32603 errors with codex's `data.kind`.
import {
  accessSync,
  closeSync,
  constants as fsConstants,
  existsSync,
  openSync,
  readSync,
  statSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  SpawnFailureKind,
  terminalEofBytes,
  type OutputStream,
  type TerminalSize,
} from '../../../shared/protocol';
import { errnoCode, osErrorText } from '../fs/os-error';
import {
  PipeSpawnError,
  spawnReadPipes,
  spawnReadPty,
  type ReadBounds,
  type ReadPipes,
  type ReadPty,
} from '../reader/reader-thread';
import type { RingLease } from '../reader/output-ring';
import { RpcError } from '../rpc/rpc-error';
import { errorMessage } from '../../../shared/error-message';

export interface SpawnSpec {
  argv: string[];
  arg0: string | null;
  cwd: string;
  env: Record<string, string>;
  tty: boolean;
  pipeStdin: boolean;
  size: TerminalSize;
  /** Output read ahead of the main thread at most (READER_READ_AHEAD_BYTES), and the rings' size. */
  bounds: ReadBounds;
  /** PATH used to find a bare argv[0]: the server's, not the child's (as codex). */
  searchPath: string;
}

export interface ChildCallbacks {
  /** A chunk with a lease lies in the reader's ring: held until the lease is released, in order. */
  data(stream: OutputStream, chunk: Buffer, lease: RingLease | null): void;
  /** Called once per output stream when it reaches EOF. */
  streamEnd(): void;
  exit(exitCode: number): void;
}

export interface ChildIo {
  readonly pid: number;
  readonly stdinWritable: boolean;
  write(chunk: Buffer): void;
  /** Ends the input: closes the stdin pipe, or under a tty sends the terminal's EOF character. */
  closeStdin(): void;
  setReading(reading: boolean): void;
  /** False when the process has no terminal. */
  resize(cols: number, rows: number): boolean;
  /** Signals the whole process group; a group that is gone is ignored. */
  signalGroup(signal: NodeJS.Signals): void;
}

const BASH = '/bin/bash';

function spawnError(code: string | undefined, fallback: string): RpcError {
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    return RpcError.spawnFailure(SpawnFailureKind.notFound, osErrorText('ENOENT'));
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return RpcError.spawnFailure(SpawnFailureKind.permissionDenied, osErrorText(code));
  }
  return RpcError.spawnFailure(SpawnFailureKind.failed, code ? osErrorText(code) : fallback);
}

function isExecutableFile(file: string): 'ok' | 'noexec' | 'missing' {
  try {
    if (!statSync(file).isFile()) return 'noexec';
    accessSync(file, fsConstants.X_OK);
    return 'ok';
  } catch (error) {
    return errnoCode(error) === 'EACCES' ? 'noexec' : 'missing';
  }
}

/** Finds the program to execute: a bare name on `searchPath`, anything with a slash as given. */
function resolveProgram(program: string, searchPath: string, cwd: string): string {
  if (program.includes('/')) {
    const absolute = path.resolve(cwd, program);
    const state = isExecutableFile(absolute);
    if (state === 'missing') throw spawnError('ENOENT', '');
    if (state === 'noexec') throw spawnError('EACCES', '');
    return absolute;
  }
  let denied = false;
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir || program === '') continue;
    const candidate = path.join(dir, program);
    const state = isExecutableFile(candidate);
    if (state === 'ok') return candidate;
    if (state === 'noexec' && existsSync(candidate)) denied = true;
  }
  throw spawnError(denied ? 'EACCES' : 'ENOENT', '');
}

const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);
const HOST_ELF_DATA = os.endianness() === 'LE' ? 1 : 2;

/**
 * libc's execvp runs files the kernel refuses (ENOEXEC) through /bin/sh; codex reports them as
 * spawn failures, so refuse what the kernel would: neither a `#!` script nor a plausible ELF image.
 */
function checkExecFormat(file: string): void {
  const head = Buffer.alloc(64);
  let length: number;
  try {
    const fd = openSync(file, 'r');
    try {
      length = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return; // Unreadable but executable: let exec itself decide.
  }
  if (length >= 2 && head[0] === 0x23 && head[1] === 0x21) return;
  const elfClass = head[4];
  const minHeader = elfClass === 1 ? 52 : 64;
  const plausibleElf =
    length >= minHeader &&
    head.subarray(0, 4).equals(ELF_MAGIC) &&
    (elfClass === 1 || elfClass === 2) &&
    head[5] === HOST_ELF_DATA &&
    head[6] === 1;
  if (!plausibleElf) throw spawnError('ENOEXEC', '');
}

function checkCwd(cwd: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(cwd).isDirectory();
  } catch (error) {
    throw spawnError(errnoCode(error), errorMessage(error));
  }
  if (!isDirectory) throw spawnError('ENOTDIR', '');
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

function signalExitCode(signal: NodeJS.Signals | number | null): number {
  if (typeof signal === 'number') return 128 + signal;
  if (!signal) return 1;
  return 128 + (os.constants.signals[signal] ?? 0);
}

export async function spawnChild(spec: SpawnSpec, callbacks: ChildCallbacks): Promise<ChildIo> {
  checkCwd(spec.cwd);
  const program = resolveProgram(spec.argv[0]!, spec.searchPath, spec.cwd);
  checkExecFormat(program);
  return spec.tty ? spawnPty(spec, program, callbacks) : spawnWithPipes(spec, program, callbacks);
}

function spawnPty(spec: SpawnSpec, program: string, callbacks: ChildCallbacks): ChildIo {
  // node-pty cannot set argv[0]; bash's `exec -a` can, when bash exists.
  const useArg0 = spec.arg0 !== null && existsSync(BASH);
  const file = useArg0 ? BASH : program;
  const args = useArg0
    ? ['-c', 'exec -a "$0" "$@"', spec.arg0!, program, ...spec.argv.slice(1)]
    : spec.argv.slice(1);
  let spawned: ReadPty;
  try {
    spawned = spawnReadPty(
      file,
      args,
      {
        name: spec.env.TERM ?? 'xterm-256color',
        cols: spec.size.cols,
        rows: spec.size.rows,
        cwd: spec.cwd,
        env: spec.env,
      },
      spec.bounds,
      (chunk, lease) => callbacks.data('pty', chunk, lease),
    );
  } catch (error) {
    throw spawnError(errnoCode(error), errorMessage(error));
  }
  const { term } = spawned;
  let lastWritten: number | null = null;
  const write = (chunk: Buffer): void => {
    if (spawned.reaped() || chunk.length === 0) return;
    lastWritten = chunk[chunk.length - 1]!;
    spawned.write(chunk);
  };
  term.onExit(({ exitCode, signal }) => {
    // node-pty reports exit only after the terminal's output stream closed.
    callbacks.streamEnd();
    callbacks.exit(signal ? signalExitCode(signal) : exitCode);
  });
  return {
    pid: term.pid,
    stdinWritable: true,
    // After the reap the master may be closed and its number reused by another terminal.
    write,
    closeStdin: () => write(Buffer.from(terminalEofBytes(lastWritten))),
    setReading: spawned.setReading,
    resize: (cols, rows) => {
      if (spawned.reaped()) return false;
      term.resize(cols, rows);
      return true;
    },
    signalGroup: (signal) => signalGroup(term.pid, signal),
  };
}

async function spawnWithPipes(spec: SpawnSpec, program: string, callbacks: ChildCallbacks): Promise<ChildIo> {
  let child: ReadPipes;
  try {
    child = await spawnReadPipes(
      {
        file: program,
        args: spec.argv.slice(1),
        argv0: spec.arg0 ?? spec.argv[0]!,
        cwd: spec.cwd,
        env: spec.env,
        pipeStdin: spec.pipeStdin,
        bounds: spec.bounds,
      },
      {
        data: callbacks.data,
        streamEnd: callbacks.streamEnd,
        exit: (code, signal) => callbacks.exit(code ?? signalExitCode(signal)),
      },
    );
  } catch (error) {
    if (!(error instanceof PipeSpawnError)) throw error;
    throw spawnError(error.code, error.message);
  }
  return {
    pid: child.pid,
    stdinWritable: spec.pipeStdin,
    write: child.write,
    closeStdin: child.endStdin,
    setReading: child.setReading,
    resize: () => false,
    signalGroup: (signal) => signalGroup(child.pid, signal),
  };
}
