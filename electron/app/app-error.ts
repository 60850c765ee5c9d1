// The error type of the app layer: a stable IpcErrorCode and a message written for the user.
// The dispatcher turns it (and client errors) into the IpcErrorPayload the renderer receives.
import type { IpcErrorCode } from '../../shared/ipc';

export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: IpcErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function notFound(what: string): AppError {
  return new AppError('notFound', `${what} does not exist (any more). Refresh and try again.`);
}
