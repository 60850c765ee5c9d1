// The one policy for a name that is already taken (IfExists): refuse, replace, or keep both under
// the first free numbered name ("report (1).pdf", "report (2).pdf", …). Uploads and renames both
// resolve their destination here before they write anything.
import path from 'node:path';
import type { IfExists } from '../../../shared/ipc';
import type { RemoteFileSystemApi } from '../../client/api';
import { AppError } from '../app-error';

/** Where to write, and whether an existing file there may be replaced. */
export interface ResolvedTarget {
  path: string;
  overwrite: boolean;
}

/**
 * Applies `ifExists` to `remotePath`. The check is repeated when the write lands (the server's
 * no-replace rename), so a name taken meanwhile is still never replaced without the user's say.
 */
export async function resolveTarget(
  fs: RemoteFileSystemApi,
  remotePath: string,
  ifExists: IfExists,
): Promise<ResolvedTarget> {
  if (ifExists === 'replace') return { path: remotePath, overwrite: true };
  if (!(await fs.exists(remotePath))) return { path: remotePath, overwrite: false };
  if (ifExists === 'keepBoth') return { path: await freeName(fs, remotePath), overwrite: false };
  const { dir, base } = path.posix.parse(remotePath);
  throw new AppError('conflict', `${base} already exists in ${dir}; replace it, keep both, or skip it.`);
}

/** How many numbered names are tried before giving up (a folder full of copies of one name). */
const MAX_NUMBERED_NAMES = 1000;

/** `name` with ` (n)` before its extension; a leading dot (".profile") is not an extension. */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return `${name} (${n})`;
  return `${name.slice(0, dot)} (${n})${name.slice(dot)}`;
}

/** The first numbered sibling of `remotePath` that does not exist on the server. */
export async function freeName(fs: RemoteFileSystemApi, remotePath: string): Promise<string> {
  const { dir, base } = path.posix.parse(remotePath);
  for (let n = 1; n <= MAX_NUMBERED_NAMES; n++) {
    const candidate = path.posix.join(dir, numberedName(base, n));
    if (!(await fs.exists(candidate))) return candidate;
  }
  throw new AppError('conflict', `${dir} already has ${MAX_NUMBERED_NAMES} numbered copies of ${base}.`);
}
