// Writes a file so that readers see either the old or the new content, never a torn one:
// write a temp file in the same directory, fsync it, rename it over the target, fsync the directory.
// A write that fails at any step removes its temp file, so failures leave nothing behind.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

export async function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  // Random, so a failed write never removes the temp file of another write of the same file.
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'w', mode);
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  const dirHandle = await fs.open(dir, 'r').catch(() => null);
  if (dirHandle) {
    await dirHandle.sync().catch(() => undefined);
    await dirHandle.close();
  }
}
