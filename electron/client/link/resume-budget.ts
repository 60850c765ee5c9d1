// How many reconnects in a row a file transfer rides out without moving forward, and the one
// helper that resends an idempotent file call after each of them. Shared by the streamed
// transfers (RemoteFileSystem) and the whole-file copies of `tether cp`, so both give up alike.
import { errorMessage } from '../../../shared/error-message';
import { ClientError, isClientError } from '../client-error';
import { FS_STREAM_MAX_RESUMES } from '../constants';

/**
 * Reconnects a transfer may ride out in a row without moving forward. Any progress refills it,
 * so a long transfer survives any number of cuts as long as each one is recovered.
 */
export class ResumeBudget {
  private inARow = 0;

  constructor(private readonly what: string) {}

  progressed(): void {
    this.inARow = 0;
  }

  spend(error: unknown): void {
    if (++this.inARow <= FS_STREAM_MAX_RESUMES) return;
    const reason = errorMessage(error);
    throw new ClientError(
      'disconnected',
      `${this.what} stopped: ${FS_STREAM_MAX_RESUMES} reconnects in a row made no progress (${reason}).`,
    );
  }
}

/**
 * Runs `call` until it is answered, again after each reconnect that cut it off. Only for calls
 * whose repeat is harmless (reads, and writes of whole contents to a name no one else uses).
 */
export async function resendingAfterDrops<T>(what: string, call: () => Promise<T>): Promise<T> {
  const budget = new ResumeBudget(what);
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!isClientError(error, 'disconnected')) throw error;
      budget.spend(error);
    }
  }
}
