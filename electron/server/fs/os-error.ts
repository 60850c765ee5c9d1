// Maps Node's system errors to codex's wording ("<strerror> (os error N)") and error codes:
// ENOENT is -32004, every other OS error -32603.
import os from 'node:os';
import { RpcError } from '../rpc/rpc-error';
import { errorMessage } from '../../../shared/error-message';

const STRERROR: Record<string, string> = {
  EPERM: 'Operation not permitted',
  ENOENT: 'No such file or directory',
  EIO: 'Input/output error',
  E2BIG: 'Argument list too long',
  ENOEXEC: 'Exec format error',
  EBADF: 'Bad file descriptor',
  EAGAIN: 'Resource temporarily unavailable',
  ENOMEM: 'Cannot allocate memory',
  EACCES: 'Permission denied',
  EBUSY: 'Device or resource busy',
  EEXIST: 'File exists',
  EXDEV: 'Invalid cross-device link',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EINVAL: 'Invalid argument',
  ENFILE: 'Too many open files in system',
  EMFILE: 'Too many open files',
  ETXTBSY: 'Text file busy',
  EFBIG: 'File too large',
  ENOSPC: 'No space left on device',
  EROFS: 'Read-only file system',
  EMLINK: 'Too many links',
  ENAMETOOLONG: 'File name too long',
  ENOTEMPTY: 'Directory not empty',
  ELOOP: 'Too many levels of symbolic links',
  EDQUOT: 'Disk quota exceeded',
  ENOTSUP: 'Operation not supported',
};

const ERRNO = os.constants.errno as Record<string, number | undefined>;

/** `code` of a Node system error, or undefined for anything else. */
export function errnoCode(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

/** The OS text codex shows for a system error code, e.g. `Not a directory (os error 20)`. */
export function osErrorText(code: string): string {
  const number = ERRNO[code];
  const text = STRERROR[code] ?? code;
  return number === undefined ? text : `${text} (os error ${number})`;
}

/** Converts an error thrown by node:fs (or anything else) into the RpcError codex would send. */
export function toFsRpcError(error: unknown): RpcError {
  if (error instanceof RpcError) return error;
  const code = errnoCode(error);
  if (code === 'ENOENT') return RpcError.notFound(osErrorText(code));
  if (code) return RpcError.internal(osErrorText(code));
  return RpcError.internal(errorMessage(error));
}
