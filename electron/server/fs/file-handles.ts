// Streaming file handles (`fs/open`, `fs/readBlock`, `fs/writeBlock`, `fs/close`), owned by one
// connection and closed with it, as codex does (a resumed session does not get them back). An open
// that completes after the connection closed closes its file at once instead of registering it.
import { open, stat, type FileHandle } from 'node:fs/promises';
import { MAX_FS_BLOCK_BYTES, type WireBytes } from '../../../shared/protocol';
import { decodeBase64Strict } from '../rpc/base64';
import { acquireBlockBuffer } from '../rpc/message-pool';
import { toFsRpcError } from './os-error';
import { uriToPath } from './path-uri';
import { RpcError } from '../rpc/rpc-error';

const OPEN_FLAGS = { read: 'r', replace: 'w', update: 'r+' } as const;

export class FileHandles {
  private readonly handles = new Map<string, FileHandle>();
  private readonly opening = new Set<string>();
  private closed = false;

  constructor(private readonly maxOpen: number) {}

  /** `update` (Tether's extension) opens an existing file for writing without truncating it. */
  async open(handleId: string, uri: string, mode: 'read' | 'replace' | 'update'): Promise<void> {
    const filePath = uriToPath(uri);
    if (this.handles.has(handleId) || this.opening.has(handleId)) {
      throw RpcError.invalidRequest(`file handle \`${handleId}\` already exists`);
    }
    if (this.handles.size + this.opening.size >= this.maxOpen) {
      throw RpcError.limitExceeded(
        'openFiles',
        this.maxOpen,
        `this connection already has ${this.maxOpen} files open (the limit, --max-open-files); ` +
          'close some with fs/close before opening more',
      );
    }
    this.opening.add(handleId);
    try {
      const info = await stat(filePath).catch((error: unknown) => {
        if (mode === 'replace' && (error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      });
      if (info && !info.isFile()) throw RpcError.invalidRequest(`path \`${filePath}\` is not a file`);
      const handle = await open(filePath, OPEN_FLAGS[mode]);
      // closeAll() ran while the file was opening: nobody can ever close this handle but us.
      if (this.closed) {
        await handle.close().catch(() => undefined);
        throw RpcError.invalidRequest('the connection closed while the file was opening');
      }
      this.handles.set(handleId, handle);
    } catch (error) {
      throw toFsRpcError(error);
    } finally {
      this.opening.delete(handleId);
    }
  }

  private get(handleId: string): FileHandle {
    const handle = this.handles.get(handleId);
    if (!handle) throw RpcError.unknownFileHandle(handleId);
    return handle;
  }

  /**
   * The block's bytes, read into a pooled buffer; the connection sends them as base64 or in a
   * data frame, which is then built around them without a copy (blockFrame).
   */
  async readBlock(handleId: string, offset: number, len: number): Promise<{ chunk: Buffer; eof: boolean }> {
    const handle = this.get(handleId);
    if (len < 1 || len > MAX_FS_BLOCK_BYTES) {
      throw RpcError.invalidRequest(`file read block length must be between 1 and ${MAX_FS_BLOCK_BYTES}`);
    }
    const buffer = acquireBlockBuffer(len);
    try {
      const { bytesRead } = await handle.read(buffer, 0, len, offset);
      return { chunk: buffer.subarray(0, bytesRead), eof: bytesRead < len };
    } catch (error) {
      throw toFsRpcError(error);
    }
  }

  /** `chunk` is base64 text, or the raw bytes from a data frame. */
  async writeBlock(handleId: string, offset: number, chunk: WireBytes): Promise<void> {
    const handle = this.get(handleId);
    const bytes = typeof chunk === 'string' ? decodeBase64Strict(chunk) : { ok: true as const, bytes: chunk };
    if (!bytes.ok)
      throw RpcError.invalidRequest(`fs/writeBlock requires valid base64 chunk: ${bytes.reason}`);
    const size = bytes.bytes.length;
    if (size < 1 || size > MAX_FS_BLOCK_BYTES) {
      throw RpcError.invalidRequest(`file write block length must be between 1 and ${MAX_FS_BLOCK_BYTES}`);
    }
    try {
      await handle.write(bytes.bytes, 0, size, offset);
    } catch (error) {
      throw toFsRpcError(error);
    }
  }

  async close(handleId: string): Promise<void> {
    const handle = this.handles.get(handleId);
    if (!handle) return;
    this.handles.delete(handleId);
    await handle.close().catch(() => undefined);
  }

  /** Closes every handle; opens still in flight close theirs when they complete. */
  closeAll(): void {
    this.closed = true;
    for (const handle of this.handles.values()) void handle.close().catch(() => undefined);
    this.handles.clear();
  }
}
