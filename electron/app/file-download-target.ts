// A download destination on the local disk (Electron's save dialog result): bytes go to a
// "<name>.part" file next to the destination, renamed into place once complete.
import { promises as fs } from 'node:fs';
import type { DownloadTarget } from './host-services';

export async function fileDownloadTarget(destination: string): Promise<DownloadTarget> {
  const partial = `${destination}.part`;
  const handle = await fs.open(partial, 'w', 0o644);
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
