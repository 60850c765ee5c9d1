// Keeps the bytes an upload has handed to the server in a private temp file. A server that cannot
// continue a write after a reconnect (codex has no `tetherFsUpdate`) needs the upload to start over
// from byte 0, and the renderer's chunks pass through only once; the spool replays them.
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Size of the blocks a replay reads from the spool (the protocol's largest write block). */
const REPLAY_BLOCK_BYTES = 1_048_576;

export class UploadSpool {
  private dir: string | null = null;
  private file: FileHandle | null = null;
  private spooled = 0;
  /** Why spooling stopped (e.g. the temp disk is full); the upload goes on, but cannot start over. */
  private broken: Error | null = null;

  constructor(
    private readonly live: AsyncIterable<Uint8Array>,
    private readonly parentDir: string = os.tmpdir(),
  ) {}

  /** Bytes kept so far. */
  get bytes(): number {
    return this.spooled;
  }

  /**
   * A pass over the upload from byte 0: what was spooled, then the rest of the live source, each
   * live chunk kept before it is handed on. One pass at a time; a new one replaces the last.
   */
  async *pass(): AsyncGenerator<Uint8Array> {
    if (this.broken) {
      throw new Error(
        `The upload cannot start over after the reconnect: keeping a copy of it failed (${this.broken.message}). Upload it again.`,
      );
    }
    const replayEnd = this.spooled;
    for (let at = 0; at < replayEnd;) {
      const block = Buffer.allocUnsafe(Math.min(REPLAY_BLOCK_BYTES, replayEnd - at));
      const { bytesRead } = await this.file!.read(block, 0, block.byteLength, at);
      if (bytesRead === 0) throw new Error(`The upload spool ended at ${at} of ${replayEnd} bytes.`);
      at += bytesRead;
      yield block.subarray(0, bytesRead);
    }
    for await (const chunk of this.live) {
      await this.keep(chunk);
      yield chunk;
    }
  }

  /** Deletes the spool. */
  async dispose(): Promise<void> {
    const { file, dir } = this;
    this.file = null;
    this.dir = null;
    await file?.close().catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  }

  private async keep(chunk: Uint8Array): Promise<void> {
    if (chunk.byteLength === 0 || this.broken) return;
    try {
      await this.append(chunk);
    } catch (error) {
      // Without a spool the upload still succeeds unless the link drops, so it is not failed here.
      this.broken = error instanceof Error ? error : new Error(String(error));
      await this.dispose().catch(() => undefined);
    }
  }

  private async append(chunk: Uint8Array): Promise<void> {
    if (!this.file) {
      // mkdtemp makes the folder 0700, so only this user can read the spooled file.
      this.dir = await mkdtemp(path.join(this.parentDir, 'tether-upload-'));
      this.file = await open(path.join(this.dir, 'spool'), 'w+', 0o600);
    }
    let at = 0;
    while (at < chunk.byteLength) {
      const { bytesWritten } = await this.file.write(chunk, at, chunk.byteLength - at, this.spooled + at);
      at += bytesWritten;
    }
    this.spooled += chunk.byteLength;
  }
}
