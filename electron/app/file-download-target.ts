// A download destination on the local disk (Electron's save dialog result): bytes go to a
// "<name>.<random>.part" file next to the destination, renamed into place once complete.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { DownloadTarget } from './host-services';

export async function fileDownloadTarget(destination: string): Promise<DownloadTarget> {
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
      await fs.rename(partial, destination);
    },
    abort: () => {
      void close().then(() => fs.rm(partial, { force: true }));
    },
  };
}
