// RemoteFileSystem: the exec-server's fs methods behind absolute paths. A thin adapter: it owns no
// reconnect state and never replays a call. The metadata operations live here, with their codex
// fallbacks (codex has no rename); streaming in blocks is fs-stream.ts.
import {
  ErrorCode,
  Method,
  TetherCapability,
  type FsDirectoryEntry,
  type FsMetadata,
} from '../../../shared/protocol';
import type { ReadStreamOptions, RemoteFileSystemApi, WriteStreamOptions } from '../api';
import { ClientError, isClientError, isExistsError } from '../client-error';
import { fromPathUri, toPathUri } from './path-uri';
import { readStream, writeStream, type RemoteFileSystemOps } from './fs-stream';

export type { RemoteFileSystemOps };

function existsError(path: string): ClientError {
  return new ClientError('exists', `${path} already exists; choose to replace it or pick another name.`);
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

  async rename(
    sourcePath: string,
    destinationPath: string,
    options: { overwrite?: boolean } = {},
  ): Promise<void> {
    const overwrite = options.overwrite ?? false;
    if (this.ops.hasCapability(TetherCapability.fsRename)) {
      if (!overwrite && !this.ops.hasCapability(TetherCapability.fsRenameOptions)) {
        await this.refuseExisting(destinationPath);
      }
      await this.renameOnServer(sourcePath, destinationPath, { noReplace: !overwrite });
      return;
    }
    // Codex has no rename: a copy, then the source removed. Not atomic, so the check is too.
    if (!overwrite) await this.refuseExisting(destinationPath);
    const metadata = await this.getMetadata(sourcePath);
    if (metadata.isDirectory && overwrite)
      await this.remove(destinationPath, { recursive: true, force: true });
    await this.copy(sourcePath, destinationPath, { recursive: metadata.isDirectory });
    await this.remove(sourcePath, { recursive: true, force: false });
  }

  /**
   * Puts a complete staged file (written beside its destination) in the destination's place and
   * removes the staged name. Where the server renames, that is one atomic rename that keeps the
   * replaced file's mode (and owner where the server may set it). Codex cannot rename, so the
   * staged file is copied over the destination by the server itself (a local copy: the old
   * contents stay until the new ones are complete on the server's disk) and then removed; the
   * destination then has the staged file's mode.
   */
  async placeStaged(
    stagedPath: string,
    destinationPath: string,
    options: { overwrite: boolean },
  ): Promise<void> {
    if (this.ops.hasCapability(TetherCapability.fsRenameOptions)) {
      await this.renameOnServer(stagedPath, destinationPath, {
        noReplace: !options.overwrite,
        keepDestinationMode: true,
      });
      return;
    }
    if (!options.overwrite) await this.refuseExisting(destinationPath);
    if (this.ops.hasCapability(TetherCapability.fsRename)) {
      await this.renameOnServer(stagedPath, destinationPath, {});
      return;
    }
    await this.copy(stagedPath, destinationPath, { recursive: false });
    await this.remove(stagedPath, { recursive: false, force: true });
  }

  async exists(path: string): Promise<boolean> {
    try {
      await this.getMetadata(path);
      return true;
    } catch (error) {
      if (isClientError(error, 'rpc') && error.rpc?.code === ErrorCode.notFound) {
        // getMetadata follows links: a dangling one is "not found" yet still takes the name.
        return this.danglingLinkAt(path);
      }
      throw error;
    }
  }

  private async danglingLinkAt(path: string): Promise<boolean> {
    const slash = path.lastIndexOf('/');
    const dir = slash <= 0 ? '/' : path.slice(0, slash);
    const name = path.slice(slash + 1);
    const entries = await this.readDirectory(dir).catch(() => []);
    return entries.some((entry) => entry.fileName === name);
  }

  private async refuseExisting(path: string): Promise<void> {
    if (await this.exists(path)) throw existsError(path);
  }

  private async renameOnServer(
    sourcePath: string,
    destinationPath: string,
    options: { noReplace?: boolean; keepDestinationMode?: boolean },
  ): Promise<void> {
    try {
      await this.ops.callOnce(Method.fsRename, {
        sourcePath: toPathUri(sourcePath),
        destinationPath: toPathUri(destinationPath),
        ...options,
      });
    } catch (error) {
      if (options.noReplace && isClientError(error, 'rpc') && isExistsError(error)) {
        throw existsError(destinationPath);
      }
      throw error;
    }
  }

  async canonicalize(path: string): Promise<string> {
    return fromPathUri((await this.ops.callOnce(Method.fsCanonicalize, { path: toPathUri(path) })).path);
  }

  /**
   * Reads `path` in blocks, several in flight at once, and hands them to `onChunk` strictly in
   * order; a reconnect reopens the file where it stopped (see fs-stream.ts).
   */
  readStream(
    path: string,
    onChunk: (chunk: Uint8Array, offset: number) => void | Promise<void>,
    options: ReadStreamOptions = {},
  ): Promise<{ bytes: number }> {
    return readStream(this.ops, path, onChunk, options);
  }

  /** Writes `source` to `path` (created or truncated), pipelined; see fs-stream.ts for reconnects. */
  writeStream(
    path: string,
    source: AsyncIterable<Uint8Array>,
    options: WriteStreamOptions = {},
  ): Promise<{ bytes: number }> {
    return writeStream(this.ops, path, source, options);
  }
}
