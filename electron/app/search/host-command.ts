// Runs one helper program on an environment's host (rg, grep, git, find) outside the process list:
// argv only, never a shell line; stdout handed over as it arrives, stderr kept bounded; stopped
// when the caller has enough, when it is cancelled, or at its time limit, so it never hangs.
import type { ExecServerClientApi, ProcessHandle } from '../../client/api';
import { isClientError } from '../../client/client-error';
import { HOST_COMMAND_STDERR_BYTES, HOST_COMMAND_STOP_WAIT_MS } from '../limits';

export interface HostCommand {
  argv: string[];
  /** Absolute path on the host. */
  cwd: string;
  timeoutMs: number;
  /** Called with each stdout chunk; returning false stops the program (the caller has enough). */
  onStdout: (chunk: Uint8Array) => boolean;
  signal?: AbortSignal;
}

export interface HostCommandResult {
  /** Null when it was stopped before it exited by itself. */
  exitCode: number | null;
  stderr: string;
  /** Why it was stopped early, if it was. */
  stopped: 'enough' | 'timeout' | 'cancelled' | null;
}

/** The program could not be started: it is not installed on the host (or not on its PATH). */
export class MissingProgramError extends Error {
  override readonly name = 'MissingProgramError';
  constructor(readonly program: string) {
    super(`${program} is not available on the host`);
  }
}

export async function runHostCommand(
  client: ExecServerClientApi,
  command: HostCommand,
): Promise<HostCommandResult> {
  if (command.signal?.aborted) return { exitCode: null, stderr: '', stopped: 'cancelled' };
  let handle: ProcessHandle;
  try {
    handle = await client.startProcess({
      argv: command.argv,
      cwd: command.cwd,
      inheritEnv: true,
      tty: false,
    });
  } catch (error) {
    // A failed spawn is an rpc error of the server (not found, not executable): the program is missing.
    if (isClientError(error, 'rpc')) throw new MissingProgramError(command.argv[0] ?? '');
    throw error;
  }
  const started = handle;
  return new Promise<HostCommandResult>((resolve) => {
    const stderr: Uint8Array[] = [];
    let stderrBytes = 0;
    let exitCode: number | null = null;
    let stopped: HostCommandResult['stopped'] = null;
    let finished = false;
    let stopTimer: NodeJS.Timeout | undefined;
    // subscribe() replays what the process already did, so a quick one may finish inside it.
    let unsubscribe: (() => void) | null = null;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      clearTimeout(stopTimer);
      command.signal?.removeEventListener('abort', onAbort);
      unsubscribe?.();
      started.dispose();
      resolve({
        exitCode: stopped ? null : exitCode,
        stderr: Buffer.concat(stderr).toString('utf8').trim(),
        stopped,
      });
    };
    const stop = (why: NonNullable<HostCommandResult['stopped']>) => {
      if (stopped || finished) return;
      stopped = why;
      void started.terminate().catch(() => undefined);
      // A dead link must not keep the caller waiting for the closed event.
      stopTimer = setTimeout(finish, HOST_COMMAND_STOP_WAIT_MS);
    };
    const onAbort = () => stop('cancelled');
    const timer = setTimeout(() => stop('timeout'), command.timeoutMs);
    command.signal?.addEventListener('abort', onAbort);
    unsubscribe = started.subscribe((event) => {
      switch (event.kind) {
        case 'output':
          if (event.stream === 'stderr') {
            if (stderrBytes < HOST_COMMAND_STDERR_BYTES) {
              stderr.push(event.data.subarray(0, HOST_COMMAND_STDERR_BYTES - stderrBytes));
              stderrBytes += event.data.byteLength;
            }
          } else if (!stopped && !command.onStdout(event.data)) stop('enough');
          break;
        case 'exited':
          exitCode = event.exitCode;
          break;
        case 'closed':
        case 'failed':
          finish();
          break;
        case 'gap':
          break;
      }
    });
    if (finished) unsubscribe();
  });
}
