// A download destination on the local disk (Electron's save dialog result, or one file of a folder
// download): bytes go to a "<name>.<random>.part" file next to the destination, put in place once
// complete — replacing an existing file only when told to, else refusing a name taken meanwhile.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { AppError } from '../app-error';
import type { DownloadTarget } from '../host-services';

/**
 * @param replace whether an existing file at `destination` may be replaced (the save dialog asked,
 * or the user chose Replace); otherwise the finished file takes the name only if it is still free.
 */
export async function fileDownloadTarget(destination: string, replace = true): Promise<DownloadTarget> {
  // One partial file per download: a cancelled download still winding down (a block in flight, then
  // its cleanup) must never write into, or remove, the partial file of a new one to the same place.
  const partial = `${destination}.${randomBytes(4).toString('hex')}.part`;
  const handle = await fs.open(partial, 'wx', 0o644);
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return {
    write: async (chunk) => {
      await handle.write(chunk);
    },
    finish: async () => {
      await handle.sync();
      await close();
      if (replace) return fs.rename(partial, destination);
      // link(2) refuses an existing name atomically, so a file that appeared meanwhile stays.
      try {
        await fs.link(partial, destination);
      } catch (error) {
        await fs.rm(partial, { force: true });
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        throw new AppError('conflict', `${destination} appeared meanwhile; it was left as it is.`);
      }
      await fs.rm(partial, { force: true });
    },
    abort: () => {
      void close().then(() => fs.rm(partial, { force: true }));
    },
  };
}
