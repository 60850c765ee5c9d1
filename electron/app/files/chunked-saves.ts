// The bytes of editor saves too large for one IPC message, gathered in order (an UploadBuffer
// checks the order and the announced size) until editor.save takes them whole. Held in memory and
// bounded: the oldest unfinished save is dropped when a new one would exceed MAX_CHUNKED_SAVES.
import { randomUUID } from 'node:crypto';
import { AppError } from '../app-error';
import { UploadBuffer } from './upload-buffer';

/** A few open editors saving at once; an abandoned save (its renderer gone) is dropped by newer ones. */
export const MAX_CHUNKED_SAVES = 4;

interface ChunkedSave {
  envId: string;
  buffer: UploadBuffer;
}

export class ChunkedSaves {
  /** In insertion order, so the first entry is the oldest. */
  private readonly saves = new Map<string, ChunkedSave>();

  begin(envId: string, totalBytes: number): string {
    while (this.saves.size >= MAX_CHUNKED_SAVES) {
      const [oldest, save] = this.saves.entries().next().value as [string, ChunkedSave];
      save.buffer.fail(new AppError('conflict', 'This save was dropped for newer ones; save again.'));
      this.saves.delete(oldest);
    }
    const saveId = randomUUID();
    // Bound = the whole size: the buffer never holds a sender back, it only checks the chunks.
    this.saves.set(saveId, { envId, buffer: new UploadBuffer(totalBytes, Math.max(totalBytes, 1)) });
    return saveId;
  }

  async push(saveId: string, offset: number, data: Uint8Array): Promise<void> {
    const { buffer } = this.get(saveId);
    await buffer.push(offset, data, offset + data.byteLength === buffer.totalBytes);
  }

  /** The complete bytes of `saveId`, which ends it; refused when it is another environment's or unfinished. */
  async take(saveId: string, envId: string): Promise<Uint8Array> {
    const save = this.get(saveId);
    if (save.envId !== envId) throw new AppError('invalidInput', 'This save belongs to another environment.');
    this.saves.delete(saveId);
    const { buffer } = save;
    if (!buffer.complete) {
      throw new AppError(
        'invalidInput',
        `Only ${buffer.receivedBytes} of the save's ${buffer.totalBytes} bytes arrived; save again.`,
      );
    }
    const data = new Uint8Array(buffer.totalBytes);
    let at = 0;
    for await (const chunk of buffer) {
      data.set(chunk, at);
      at += chunk.byteLength;
    }
    return data;
  }

  private get(saveId: string): ChunkedSave {
    const save = this.saves.get(saveId);
    if (!save) throw new AppError('notFound', 'This save is unknown or was dropped; save again.');
    return save;
  }
}
