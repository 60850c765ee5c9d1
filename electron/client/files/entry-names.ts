// The one check a name a server sent goes through before it becomes part of a path on this machine
// (folder downloads in the app, their zips, `tether cp -r`): a listing is the server's word, and a
// name such as "../../.bashrc" must not write outside the folder the user chose (scp's CVE-2019-6111).
import path from 'node:path';
import { ClientError } from '../client-error';

/** The platform whose file names apply (process.platform; a parameter so tests can ask for win32). */
export type NamePlatform = NodeJS.Platform;

/** Windows' device names: opening `CON` or `nul.txt` in any folder reaches the device, not a file. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/**
 * Why `name` (one entry of a listing) cannot be used as a local file or folder name on `platform`,
 * or null when it can. Refused everywhere: empty, ".", "..", and any separator or NUL, since each
 * makes one name into a path or cuts it short. On Windows also ":" (drive letters and alternate data
 * streams), device names with or without an extension, and a trailing dot or space, which Windows
 * strips (so ".. " would open "..").
 */
export function refusedEntryName(name: string, platform: NamePlatform = process.platform): string | null {
  if (name === '') return 'the name is empty';
  if (name === '.' || name === '..') return `"${name}" names a folder, not an entry in it`;
  if (name.includes('/') || name.includes('\\')) return 'the name contains a path separator';
  if (name.includes('\0')) return 'the name contains a NUL character';
  if (platform !== 'win32') return null;
  if (name.includes(':')) return 'the name contains ":", which Windows reads as a drive or a stream';
  if (/[. ]$/.test(name)) return 'the name ends with a dot or a space, which Windows drops';
  const stem = name.split('.')[0]!.trimEnd();
  if (WINDOWS_DEVICE.test(stem)) return `"${stem}" is a Windows device name`;
  return null;
}

/** A refused name as an error (code `unsafeName`), naming what was refused and why. */
function refusal(relativePath: string, why: string): ClientError {
  return new ClientError(
    'unsafeName',
    `Refused the server's name "${relativePath}": ${why}; it was not written on this machine.`,
  );
}

/** Throws (code `unsafeName`) unless `name` is one a local file or folder can have. */
export function checkEntryName(name: string, platform: NamePlatform = process.platform): void {
  const why = refusedEntryName(name, platform);
  if (why) throw refusal(name, why);
}

/** Throws unless every "/"-separated part of `relativePath` is a name refusedEntryName accepts. */
export function checkRelativePath(relativePath: string, platform: NamePlatform = process.platform): void {
  for (const part of relativePath.split('/')) {
    const why = refusedEntryName(part, platform);
    if (why) throw refusal(relativePath, why);
  }
}

/**
 * The local path of `relativePath` ("/"-separated, as a folder walk lists it) under `root`, checked
 * part by part and then once more as a whole: whatever it resolves to must stay inside `root`.
 * `relativePath` '' is `root` itself.
 */
export function localPathUnder(
  root: string,
  relativePath: string,
  platform: NamePlatform = process.platform,
): string {
  const paths = platform === 'win32' ? path.win32 : path.posix;
  if (relativePath === '') return root;
  checkRelativePath(relativePath, platform);
  const destination = paths.resolve(root, ...relativePath.split('/'));
  const inside = paths.relative(paths.resolve(root), destination);
  if (inside === '' || inside === '..' || inside.startsWith(`..${paths.sep}`) || paths.isAbsolute(inside)) {
    throw refusal(relativePath, `it leads outside ${root}`);
  }
  return destination;
}
