// The one error type the client throws. `code` is stable (see ClientErrorCode in api.ts); the
// message says what happened and, where it helps, what to do. RPC errors keep the server's code.
import type { ClientErrorCode } from './api';
import { ErrorCode, FsErrorKind, ProcessErrorKind } from '../../shared/protocol';
import { errorMessage } from '../../shared/error-message';

export class ClientError extends Error {
  override readonly name = 'ClientError';
  constructor(
    readonly code: ClientErrorCode,
    message: string,
    /** For code 'rpc' (and 'unknownSession'): the JSON-RPC error of the server. */
    readonly rpc?: { code: number; message: string; data?: unknown },
  ) {
    super(message);
  }
}

export function isClientError(error: unknown, ...codes: ClientErrorCode[]): error is ClientError {
  return error instanceof ClientError && (codes.length === 0 || codes.includes(error.code));
}

/** Codes of failures that may pass by themselves (the network, the server not up yet, a timeout). */
export function isTransientCode(code: ClientErrorCode): boolean {
  return code === 'disconnected' || code === 'transport' || code === 'timeout';
}

/** Wraps anything thrown into a ClientError, keeping ClientErrors as they are. */
export function toClientError(error: unknown, code: ClientErrorCode = 'transport'): ClientError {
  if (error instanceof ClientError) return error;
  const message = errorMessage(error);
  return new ClientError(code, message);
}

/** A JSON-RPC error response, classified: unknown session on resume is terminal for the session. */
export function rpcError(
  method: string,
  error: { code: number; message: string; data?: unknown },
): ClientError {
  if (
    method === 'initialize' &&
    error.code === ErrorCode.invalidRequest &&
    error.message.startsWith('unknown session id')
  ) {
    return new ClientError(
      'unknownSession',
      `The server no longer knows this session (${error.message}); it expired or the server restarted. ` +
        'Processes of the old session are gone; start a new session.',
      error,
    );
  }
  if (error.code === ErrorCode.transportClosed) {
    return new ClientError('disconnected', `${method} failed: ${error.message}`, error);
  }
  return new ClientError('rpc', `${method} failed: ${error.message} (JSON-RPC error ${error.code})`, error);
}

/** The typed `data.kind` of a server's error, where it sent one (Tether's server does; codex does not). */
function errorKind(rpc: { data?: unknown }): unknown {
  const data = rpc.data as { kind?: unknown } | null | undefined;
  return typeof data === 'object' && data !== null ? data.kind : undefined;
}

/**
 * Codex 0.171.0 says "unknown process" and "unknown file handle" only in its text. This is the one
 * place the client reads an error's message to classify it; Tether's server sends a typed kind.
 */
const codexText = {
  unknownProcess: (rpc: { code: number; message: string }): boolean =>
    rpc.code === ErrorCode.invalidRequest && rpc.message.startsWith('unknown process id'),
  unknownFileHandle: (rpc: { code: number; message: string }): boolean =>
    rpc.code === ErrorCode.notFound && rpc.message.startsWith('unknown file handle'),
};

/** The server does not know the process (never started, or already reaped). */
export function isUnknownProcessError(error: ClientError): boolean {
  const rpc = error.rpc;
  if (!rpc) return false;
  return errorKind(rpc) === ProcessErrorKind.unknownProcess || codexText.unknownProcess(rpc);
}

/** The connection holds no such file handle: handles die with their connection (-32004). */
export function isUnknownFileHandleError(error: ClientError): boolean {
  const rpc = error.rpc;
  if (!rpc) return false;
  return errorKind(rpc) === FsErrorKind.unknownFileHandle || codexText.unknownFileHandle(rpc);
}

/**
 * An fs/rename with `noReplace` found its destination taken. Only Tether's server renames, and it
 * always says so with a kind, so no text is read.
 */
export function isExistsError(error: ClientError): boolean {
  return error.rpc !== undefined && errorKind(error.rpc) === FsErrorKind.exists;
}

/** A peer sent one message larger than MAX_INBOUND_MESSAGE_BYTES; the link is closed for it. */
export function inboundMessageTooLarge(peer: string, maxBytes: number): ClientError {
  return new ClientError(
    'protocol',
    `${peer} sent a message larger than the client accepts (${maxBytes / 1_048_576} MiB), so the ` +
      'connection was closed. A whole-file fs/readFile of a huge file does this: read such files in ' +
      'blocks (fs/open + fs/readBlock).',
  );
}
