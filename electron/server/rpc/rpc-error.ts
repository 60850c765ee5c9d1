// The error type every request handler throws to produce a JSON-RPC error response; anything
// else thrown is reported as -32603 with its message.
import {
  ErrorCode,
  FsErrorKind,
  LIMIT_EXCEEDED_KIND,
  ProcessErrorKind,
  type SpawnFailureKindValue,
} from '../../../shared/protocol';

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  static invalidRequest(message: string): RpcError {
    return new RpcError(ErrorCode.invalidRequest, message);
  }
  static invalidParams(message: string): RpcError {
    return new RpcError(ErrorCode.invalidParams, message);
  }
  static internal(message: string): RpcError {
    return new RpcError(ErrorCode.internal, message);
  }
  static notFound(message: string): RpcError {
    return new RpcError(ErrorCode.notFound, message);
  }
  /** Codex's message, plus a typed `data.kind` so clients need not parse the text. */
  static unknownProcess(processId: string): RpcError {
    return new RpcError(ErrorCode.invalidRequest, `unknown process id ${processId}`, {
      kind: ProcessErrorKind.unknownProcess,
    });
  }
  /** Codex's -32004 and message for a handle this connection does not hold, plus a typed kind. */
  static unknownFileHandle(handleId: string): RpcError {
    return new RpcError(ErrorCode.notFound, `unknown file handle \`${handleId}\``, {
      kind: FsErrorKind.unknownFileHandle,
    });
  }
  /** A resource cap was reached; the message says which, the bound, and what to do. */
  static limitExceeded(limit: string, max: number, message: string): RpcError {
    return new RpcError(ErrorCode.invalidRequest, message, { kind: LIMIT_EXCEEDED_KIND, limit, max });
  }
  static spawnFailure(kind: SpawnFailureKindValue, message: string): RpcError {
    return new RpcError(ErrorCode.internal, message, { kind });
  }
}
