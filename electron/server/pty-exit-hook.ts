// Learns that a pty process exited the moment node-pty's native waitpid thread reports it, before
// node-pty's own 'exit' event (which it holds back until the terminal's output stream closed).
// node-pty has no public hook for that, so its native binding's `fork` is wrapped once: the wrapper
// swaps in a listener for the exit callback it is given (always the last argument). Relies on
// node-pty internals (lib/utils.loadNativeModule, the fork signature) of the pinned version; where
// they are missing (Windows, another layout) nothing is wrapped and callers get `false`.
import { createRequire } from 'node:module';

type ExitCallback = (exitCode: number, signal: number) => void;
interface NativePty {
  fork: (...args: unknown[]) => unknown;
}

let installed: boolean | null = null;
let nextListener: ExitCallback | null = null;

function install(): boolean {
  try {
    const require = createRequire(import.meta.url);
    const utils = require('node-pty/lib/utils') as {
      loadNativeModule?: (name: string) => { module: NativePty };
    };
    const native = utils.loadNativeModule?.('pty').module;
    if (!native || typeof native.fork !== 'function') return false;
    const fork = native.fork;
    native.fork = (...args: unknown[]) => {
      const listener = nextListener;
      const onExit = args[args.length - 1];
      if (listener && typeof onExit === 'function') {
        args[args.length - 1] = (exitCode: number, signal: number) => {
          listener(exitCode, signal);
          (onExit as ExitCallback)(exitCode, signal);
        };
      }
      return fork.apply(native, args);
    };
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `spawn` (which must call node-pty's spawn synchronously) with `onExit` attached to the
 * process it forks. Returns whether the hook is in place; if not, `onExit` is never called.
 */
export function withNativeExitListener<T>(
  onExit: ExitCallback,
  spawn: () => T,
): { result: T; hooked: boolean } {
  installed ??= install();
  nextListener = installed ? onExit : null;
  try {
    return { result: spawn(), hooked: installed };
  } finally {
    nextListener = null;
  }
}
