// Every use of node-pty's private internals, in one place, written against node-pty
// NODE_PTY_VERSION (pinned in package.json). node-pty has no public way to let another thread read
// a terminal, or to learn of an exit before the terminal's output closed; this file does both
// through what that version keeps inside, and checks that it is all there.
import { EventEmitter } from 'node:events';
import tty from 'node:tty';
import type * as NodePty from 'node-pty';
import { requireNodePty } from './node-pty-module';

/** The node-pty release whose internals this file was written for. */
export const NODE_PTY_VERSION = '1.2.0-beta.15';

const pty = requireNodePty('') as typeof NodePty;

function installedVersion(): string {
  try {
    return (requireNodePty('/package.json') as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** node-pty lacks something Tether relies on: another version, or another platform's layout. */
export class NodePtyInternalsError extends Error {
  readonly code = 'NODE_PTY_INTERNALS_MISSING';

  constructor(missing: string) {
    super(
      `node-pty internals missing: ${missing}. Tether's terminal support was written for node-pty ` +
        `${NODE_PTY_VERSION} (installed: ${installedVersion()}); install that version.`,
    );
    this.name = 'NodePtyInternalsError';
  }
}

type ExitCallback = (exitCode: number, signal: number) => void;

/** The native binding, as lib/utils.loadNativeModule('pty') returns it. */
interface NativePty {
  fork: (...args: unknown[]) => unknown;
}

/** A UnixTerminal's private fields, set by its constructor. */
interface TerminalInternals {
  _socket?: unknown;
  /** Accessors on UnixTerminal.prototype (not in node-pty's typings): the master and the slave's path. */
  fd?: unknown;
  ptsName?: unknown;
}

let checked = false;
let nextExitListener: (() => void) | null = null;

function loadNativePty(): NativePty {
  let utils: { loadNativeModule?: unknown };
  try {
    utils = requireNodePty('/lib/utils') as typeof utils;
  } catch {
    throw new NodePtyInternalsError('module node-pty/lib/utils');
  }
  if (typeof utils.loadNativeModule !== 'function') {
    throw new NodePtyInternalsError('loadNativeModule in node-pty/lib/utils');
  }
  const native = (utils.loadNativeModule as (name: string) => { module?: Partial<NativePty> })('pty').module;
  if (typeof native?.fork !== 'function') throw new NodePtyInternalsError('fork in its native pty module');
  return native as NativePty;
}

function checkTerminalClass(): void {
  let terminal: { UnixTerminal?: { prototype?: object } };
  try {
    terminal = requireNodePty('/lib/unixTerminal') as typeof terminal;
  } catch {
    throw new NodePtyInternalsError('module node-pty/lib/unixTerminal');
  }
  const prototype = terminal.UnixTerminal?.prototype;
  if (!prototype) throw new NodePtyInternalsError('UnixTerminal in node-pty/lib/unixTerminal');
  for (const accessor of ['fd', 'ptsName']) {
    if (typeof Object.getOwnPropertyDescriptor(prototype, accessor)?.get !== 'function') {
      throw new NodePtyInternalsError(`UnixTerminal accessor \`${accessor}\``);
    }
  }
}

/**
 * Wraps the native `fork` once, so the exit callback it is given (always its last argument) first
 * calls the listener set for that spawn: the moment node-pty's waitpid thread reports the exit,
 * before node-pty's own 'exit' event, which it holds back until the terminal's output closed.
 */
function hookNativeExit(native: NativePty): void {
  const fork = native.fork;
  native.fork = (...args: unknown[]) => {
    const listener = nextExitListener;
    const onExit = args[args.length - 1];
    if (listener && typeof onExit === 'function') {
      args[args.length - 1] = (exitCode: number, signal: number) => {
        listener();
        (onExit as ExitCallback)(exitCode, signal);
      };
    }
    return fork.apply(native, args);
  };
}

/**
 * Checks, once, every internal that can be checked without spawning, and hooks the native exit.
 * The exec-server calls it at start-up so a mismatched node-pty fails there, not at the first
 * terminal; the internals of a spawned terminal are checked at each spawn.
 */
export function checkNodePtyInternals(): void {
  if (checked) return;
  const native = loadNativePty();
  checkTerminalClass();
  hookNativeExit(native);
  checked = true;
}

/**
 * Stands in for the tty.ReadStream node-pty would read the master with: it carries node-pty's
 * events, reads nothing itself, and reports 'close' once the reader thread reached the end.
 */
export class DetachedTerminalSocket extends EventEmitter {
  readable = true;
  destroyed = false;
  onForcedClose: () => void = () => {};

  pause(): this {
    return this;
  }

  resume(): this {
    return this;
  }

  setEncoding(): this {
    return this;
  }

  end(): void {}

  /** node-pty calls this 200 ms after the exit when no close came by itself. */
  destroy(): this {
    if (!this.destroyed) this.onForcedClose();
    return this;
  }

  finish(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.readable = false;
    this.emit('close');
  }
}

export interface SpawnedTerminal {
  term: NodePty.IPty;
  /** What node-pty took for its reader of the master: closes the terminal when told to. */
  socket: DetachedTerminalSocket;
  /** The master's descriptor, for a reader elsewhere. */
  masterFd: number;
  /** The slave's path (/dev/pts/N). */
  slavePath: string;
}

function missingTerminalInternal(internals: TerminalInternals): string | null {
  if (!(internals._socket instanceof DetachedTerminalSocket)) {
    return 'terminal reader made with tty.ReadStream during spawn (UnixTerminal._socket)';
  }
  if (typeof internals.fd !== 'number') return 'master descriptor (UnixTerminal.fd)';
  if (typeof internals.ptsName !== 'string') return 'slave path (UnixTerminal.ptsName)';
  return null;
}

/**
 * Spawns with node-pty (output as Buffers) without letting it read the master: node-pty builds its
 * reader with `new tty.ReadStream(fd)` inside spawn, so for that moment the class is the stand-in.
 * `onReaped` runs as soon as the process was reaped.
 */
export function spawnTerminal(
  file: string,
  args: string[],
  options: NodePty.IPtyForkOptions,
  onReaped: () => void,
): SpawnedTerminal {
  checkNodePtyInternals();
  const original = tty.ReadStream;
  const ttyModule = tty as unknown as { ReadStream: unknown };
  ttyModule.ReadStream = DetachedTerminalSocket;
  nextExitListener = onReaped;
  let term: NodePty.IPty;
  try {
    term = pty.spawn(file, args, { ...options, encoding: null });
  } finally {
    ttyModule.ReadStream = original;
    nextExitListener = null;
  }
  const internals = term as unknown as TerminalInternals;
  const missing = missingTerminalInternal(internals);
  if (missing !== null) {
    term.kill('SIGKILL');
    throw new NodePtyInternalsError(missing);
  }
  return {
    term,
    socket: internals._socket as DetachedTerminalSocket,
    masterFd: internals.fd as number,
    slavePath: internals.ptsName as string,
  };
}
