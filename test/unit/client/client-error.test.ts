// How the client classifies the server's JSON-RPC errors: an unknown process or file handle is
// recognised by Tether's typed data.kind, and by codex's documented message where there is none; a
// rename onto a taken name only by its kind (codex has no fs/rename).
import { describe, expect, it } from 'vitest';
import {
  isExistsError,
  isUnknownFileHandleError,
  isUnknownProcessError,
  rpcError,
} from '../../../electron/client/client-error';
import { ErrorCode, FsErrorKind, ProcessErrorKind } from '../../../shared/protocol';

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

describe('isUnknownFileHandleError', () => {
  it("recognises Tether's typed kind, whatever the message says", () => {
    const error = rpcError('fs/readBlock', {
      code: ErrorCode.notFound,
      message: 'handle h is gone',
      data: { kind: FsErrorKind.unknownFileHandle },
    });
    expect(isUnknownFileHandleError(error)).toBe(true);
  });

  it("recognises codex 0.171.0's untyped -32004 unknown file handle", () => {
    const error = rpcError('fs/writeBlock', { code: ErrorCode.notFound, message: 'unknown file handle `h`' });
    expect(isUnknownFileHandleError(error)).toBe(true);
  });

  it('does not mistake a missing file for it', () => {
    const missing = rpcError('fs/open', {
      code: ErrorCode.notFound,
      message: 'No such file or directory (os error 2)',
    });
    const otherCode = rpcError('fs/readBlock', {
      code: ErrorCode.invalidRequest,
      message: 'unknown file handle `h`',
    });
    expect(isUnknownFileHandleError(missing)).toBe(false);
    expect(isUnknownFileHandleError(otherCode)).toBe(false);
  });
});

describe('isExistsError', () => {
  it('recognises the typed kind of a rename onto a taken name', () => {
    const error = rpcError('fs/rename', {
      code: ErrorCode.internal,
      message: 'File exists (os error 17)',
      data: { kind: FsErrorKind.exists },
    });
    expect(isExistsError(error)).toBe(true);
  });

  it('does not read the text of an untyped error', () => {
    const error = rpcError('fs/createDirectory', {
      code: ErrorCode.internal,
      message: 'File exists (os error 17)',
    });
    expect(isExistsError(error)).toBe(false);
  });
});
