// A folder download into a folder on the local disk (Electron): the tree is recreated under
// `root`, each file written staged by fileDownloadTarget, so nothing is replaced unasked and a
// replaced file changes only once its new contents are complete. Every path is the server's names
// under `root`, checked (localPathUnder) so that none leads outside it.
import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { IfExists } from '../../../shared/ipc';
import { localPathUnder } from '../../client/files/entry-names';
import { numberedName } from './existing-target';
import { fileDownloadTarget } from './file-download-target';
import type { FolderDownloadTarget } from '../host-services';

/** How many numbered names are tried before giving up. */
const MAX_NUMBERED_NAMES = 1000;

export function localFolderTarget(root: string): FolderDownloadTarget {
  const local = (relativePath: string): string => localPathUnder(root, relativePath);
  const exists = (file: string): Promise<boolean> =>
    lstat(file).then(
      () => true,
      () => false,
    );
  return {
    filesIndependent: true,
    taken: async (files) => {
      const found = await Promise.all(files.map((f) => exists(local(f))));
      return files.filter((_, i) => found[i]);
    },
    createFolder: async (relativePath) => {
      await mkdir(local(relativePath), { recursive: true });
    },
    file: async (relativePath, _size, ifExists: IfExists) => {
      const destination = local(relativePath);
      if (ifExists !== 'keepBoth' || !(await exists(destination))) {
        return fileDownloadTarget(destination, ifExists === 'replace');
      }
      const { dir, base } = path.parse(destination);
      for (let n = 1; n <= MAX_NUMBERED_NAMES; n++) {
        const candidate = path.join(dir, numberedName(base, n));
        if (!(await exists(candidate))) return fileDownloadTarget(candidate, false);
      }
      throw new Error(`${dir} already has ${MAX_NUMBERED_NAMES} numbered copies of ${base}.`);
    },
    // Each file is put in place as it completes; nothing is left to do or undo for the tree.
    finish: async () => undefined,
    abort: () => undefined,
  };
}
