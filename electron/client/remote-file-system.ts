// RemoteFileSystem: the exec-server's fs methods behind absolute paths. A thin adapter: it owns no
// reconnect state, never replays a call, and streams through connection-scoped file handles
// (a read interrupted by a reconnect reopens at its offset; an interrupted upload fails clearly).
import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  MAX_FS_BLOCK_BYTES,
  Method,
  TetherCapability,
  type FsDirectoryEntry,
  type FsMetadata,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
} from '../../shared/protocol';
import type { RemoteFileSystemApi } from './api';
import { ClientError, isClientError } from './client-error';
import { DEFAULT_FS_BLOCK_BYTES, FS_STREAM_MAX_RESUMES } from './constants';
import { fromPathUri, toPathUri } from './path-uri';

export interface RemoteFileSystemOps {
  callOnce<M extends RequestMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  hasCapability(name: string): boolean;
}

/** Codex refuses handle ids longer than 32 bytes. */
function newHandleId(): string {
  return randomUUID().replace(/-/g, '');
}

/**
 * The transfer's handle is gone with its connection: either the call was cut off, or it went out on
 * the recovered connection, where the old handle is unknown (-32004).
 */
function handleLost(error: unknown): boolean {
  if (isClientError(error, 'disconnected')) return true;
  return (
    isClientError(error, 'rpc') &&
    error.rpc?.code === ErrorCode.notFound &&
    error.rpc.message.includes('unknown file handle')
  );
}

function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new ClientError('aborted', `${what} was cancelled.`);
}

export class RemoteFileSystem implements RemoteFileSystemApi {
  constructor(private readonly ops: RemoteFileSystemOps) {}

  async readDirectory(path: string): Promise<FsDirectoryEntry[]> {
    return (await this.ops.callOnce(Method.fsReadDirectory, { path: toPathUri(path) })).entries;
  }

  getMetadata(path: string): Promise<FsMetadata> {
    return this.ops.callOnce(Method.fsGetMetadata, { path: toPathUri(path) });
  }

  async readFile(path: string): Promise<Uint8Array> {
    const result = await this.ops.callOnce(Method.fsReadFile, { path: toPathUri(path) });
    return Buffer.from(result.dataBase64, 'base64');
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    await this.ops.callOnce(Method.fsWriteFile, {
      path: toPathUri(path),
      dataBase64: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64'),
    });
  }

  async createDirectory(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    await this.ops.callOnce(Method.fsCreateDirectory, {
      path: toPathUri(path),
      recursive: options.recursive ?? true,
    });
  }

  async remove(path: string, options: { recursive?: boolean; force?: boolean } = {}): Promise<void> {
    await this.ops.callOnce(Method.fsRemove, {
      path: toPathUri(path),
      recursive: options.recursive ?? true,
      force: options.force ?? true,
    });
  }

  async copy(sourcePath: string, destinationPath: string, options: { recursive: boolean }): Promise<void> {
    await this.ops.callOnce(Method.fsCopy, {
      sourcePath: toPathUri(sourcePath),
      destinationPath: toPathUri(destinationPath),
      recursive: options.recursive,
    });
  }

  async rename(sourcePath: string, destinationPath: string): Promise<void> {
    if (this.ops.hasCapability(TetherCapability.fsRename)) {
      await this.ops.callOnce(Method.fsRename, {
        sourcePath: toPathUri(sourcePath),
        destinationPath: toPathUri(destinationPath),
      });
      return;
    }
    const metadata = await this.getMetadata(sourcePath);
    await this.copy(sourcePath, destinationPath, { recursive: metadata.isDirectory });
    await this.remove(sourcePath, { recursive: true, force: false });
  }

  async canonicalize(path: string): Promise<string> {
    return fromPathUri((await this.ops.callOnce(Method.fsCanonicalize, { path: toPathUri(path) })).path);
  }

  async readStream(
    path: string,
    onChunk: (chunk: Uint8Array, offset: number) => void | Promise<void>,
    options: { blockSize?: number; signal?: AbortSignal } = {},
  ): Promise<{ bytes: number }> {
    const len = Math.min(MAX_FS_BLOCK_BYTES, Math.max(1, options.blockSize ?? DEFAULT_FS_BLOCK_BYTES));
    const uri = toPathUri(path);
    let offset = 0;
    let resumes = 0;
    for (;;) {
      throwIfAborted(options.signal, `Reading ${path}`);
      const handleId = newHandleId();
      await this.ops.callOnce(Method.fsOpen, { handleId, path: uri, mode: 'read' });
      try {
        for (;;) {
          throwIfAborted(options.signal, `Reading ${path}`);
          const block = await this.ops.callOnce(Method.fsReadBlock, { handleId, offset, len });
          const chunk = Buffer.from(block.chunk, 'base64');
          if (chunk.byteLength > 0) {
            await onChunk(chunk, offset);
            offset += chunk.byteLength;
          }
          if (block.eof) return { bytes: offset };
        }
      } catch (error) {
        // Handles die with the connection; reads are idempotent, so reopen at the same offset.
        if (!handleLost(error) || ++resumes > FS_STREAM_MAX_RESUMES) throw error;
        continue;
      } finally {
        this.closeHandle(handleId);
      }
    }
  }

  async writeStream(
    path: string,
    source: AsyncIterable<Uint8Array>,
    options: { signal?: AbortSignal; onProgress?: (bytes: number) => void } = {},
  ): Promise<{ bytes: number }> {
    const uri = toPathUri(path);
    const handleId = newHandleId();
    throwIfAborted(options.signal, `Writing ${path}`);
    await this.ops.callOnce(Method.fsOpen, { handleId, path: uri, mode: 'replace' });
    let offset = 0;
    try {
      for await (const data of source) {
        for (let start = 0; start < data.byteLength; start += MAX_FS_BLOCK_BYTES) {
          throwIfAborted(options.signal, `Writing ${path}`);
          const piece = data.subarray(start, start + MAX_FS_BLOCK_BYTES);
          await this.ops.callOnce(Method.fsWriteBlock, {
            handleId,
            offset,
            chunk: Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString('base64'),
          });
          offset += piece.byteLength;
          options.onProgress?.(offset);
        }
      }
      return { bytes: offset };
    } catch (error) {
      if (handleLost(error)) {
        // The source cannot be rewound, so the upload cannot restart from 0 by itself.
        throw new ClientError(
          'disconnected',
          `The connection dropped after ${offset} bytes of ${path} were written; the remote file is incomplete. ` +
            'Upload it again.',
        );
      }
      throw error;
    } finally {
      this.closeHandle(handleId);
    }
  }

  private closeHandle(handleId: string): void {
    this.ops.callOnce(Method.fsClose, { handleId }).catch(() => undefined);
  }
}
