// How the client classifies the server's JSON-RPC errors: an unknown process is recognised by
// Tether's typed data.kind, and by codex's documented message where there is none.
import { describe, expect, it } from 'vitest';
import { isUnknownProcessError, rpcError } from '../../../electron/client/client-error';
import { ErrorCode, ProcessErrorKind } from '../../../shared/protocol';

describe('isUnknownProcessError', () => {
  it("recognises Tether's typed kind, whatever the message says", () => {
    const error = rpcError('process/read', {
      code: ErrorCode.invalidRequest,
      message: 'no such process here',
      data: { kind: ProcessErrorKind.unknownProcess },
    });
    expect(isUnknownProcessError(error)).toBe(true);
  });

  it("recognises codex 0.171.0's untyped -32600 unknown process id", () => {
    const error = rpcError('process/read', {
      code: ErrorCode.invalidRequest,
      message: 'unknown process id p1',
    });
    expect(isUnknownProcessError(error)).toBe(true);
  });

  it('does not mistake other process errors for it', () => {
    const starting = rpcError('process/read', {
      code: ErrorCode.invalidRequest,
      message: 'process id p1 is starting',
    });
    const otherKind = rpcError('process/start', {
      code: ErrorCode.internal,
      message: 'unknown process id p1',
      data: { kind: 'spawnFailed' },
    });
    expect(isUnknownProcessError(starting)).toBe(false);
    expect(isUnknownProcessError(otherKind)).toBe(false);
  });
});
