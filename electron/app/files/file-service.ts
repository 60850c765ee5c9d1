// The reads behind files.* over one environment's RemoteFileSystemApi: sorted listings with sizes
// and dates (metadata fetched with bounded concurrency), stat, previews of text and images, and the
// home folder the server reports. Paths are absolute POSIX paths on the server.
import type { FileEntry, FilePreview } from '../../../shared/ipc';
import type { ExecServerClientApi, RemoteFileSystemApi } from '../../client/api';
import { fromPathUri } from '../../client/files/path-uri';
import { AppError } from '../app-error';
import { LIST_METADATA_CONCURRENCY, PREVIEW_IMAGE_LIMIT_BYTES, PREVIEW_TEXT_LIMIT_BYTES } from '../limits';

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
};

export function joinPath(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

export function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || '/';
}

export async function listDirectory(
  fs: RemoteFileSystemApi,
  path: string,
  showHidden: boolean,
): Promise<{ path: string; entries: FileEntry[]; hiddenCount: number }> {
  const raw = await fs.readDirectory(path);
  const visible = raw.filter((e) => showHidden || !e.fileName.startsWith('.'));
  // What the hidden toggle keeps out, so a folder of dot-files never reads as empty.
  const hiddenCount = raw.length - visible.length;
  const entries = await mapLimited(visible, LIST_METADATA_CONCURRENCY, async (e) => {
    const full = joinPath(path, e.fileName);
    try {
      return entryFrom(full, await fs.getMetadata(full));
    } catch {
      // A dangling symlink or an entry removed meanwhile: show what readDirectory said.
      const kind = e.isDirectory ? 'directory' : e.isFile ? 'file' : 'symlink';
      return {
        name: e.fileName,
        path: full,
        kind,
        size: null,
        modifiedAtMs: null,
        hidden: isHidden(e.fileName),
      } as FileEntry;
    }
  });
  entries.sort((a, b) => {
    const dirA = a.kind === 'directory' ? 0 : 1;
    const dirB = b.kind === 'directory' ? 0 : 1;
    return dirA - dirB || a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' });
  });
  return { path, entries, hiddenCount };
}

export async function statPath(fs: RemoteFileSystemApi, path: string): Promise<FileEntry> {
  return entryFrom(path, await fs.getMetadata(path));
}

export async function previewFile(fs: RemoteFileSystemApi, path: string): Promise<FilePreview> {
  const meta = await fs.getMetadata(path);
  if (meta.isDirectory)
    throw new AppError('invalidInput', `${path} is a folder; open it instead of previewing it.`);
  const size = meta.size;
  const mime = IMAGE_TYPES[extensionOf(path)];
  if (mime) {
    if (size > PREVIEW_IMAGE_LIMIT_BYTES) return { kind: 'tooLarge', size, limit: PREVIEW_IMAGE_LIMIT_BYTES };
    const data = await fs.readFile(path);
    if (mime === 'image/svg+xml' || magicMime(data) !== null) {
      return {
        kind: 'image',
        mime: magicMime(data) ?? mime,
        dataBase64: Buffer.from(data).toString('base64'),
        size,
      };
    }
    return classify(data, size);
  }
  const head = await readHead(fs, path, size, PREVIEW_TEXT_LIMIT_BYTES);
  const sniffed = magicMime(head);
  if (sniffed && size <= PREVIEW_IMAGE_LIMIT_BYTES) {
    const data = size <= head.byteLength ? head : await fs.readFile(path);
    return { kind: 'image', mime: sniffed, dataBase64: Buffer.from(data).toString('base64'), size };
  }
  return classify(head, size);
}

function classify(data: Uint8Array, size: number): FilePreview {
  const probe = data.subarray(0, 8192);
  if (probe.includes(0)) return { kind: 'binary', size };
  const text = new TextDecoder('utf-8').decode(data);
  const replaced = text.length - text.replaceAll('\uFFFD', '').length;
  if (replaced > 8 && replaced > text.length / 100) return { kind: 'binary', size };
  return { kind: 'text', text, truncated: data.byteLength < size, size };
}

export async function readHead(
  fs: RemoteFileSystemApi,
  path: string,
  size: number,
  limit: number,
): Promise<Uint8Array> {
  if (size <= limit) return fs.readFile(path);
  const parts: Uint8Array[] = [];
  let got = 0;
  const stop = new AbortController();
  await fs
    .readStream(
      path,
      (chunk) => {
        if (got >= limit) return;
        parts.push(chunk.subarray(0, limit - got));
        got += Math.min(chunk.byteLength, limit - got);
        if (got >= limit) stop.abort();
      },
      { blockSize: Math.min(limit, 1_048_576), signal: stop.signal },
    )
    .catch((error: unknown) => {
      if (!stop.signal.aborted) throw error;
    });
  return Buffer.concat(parts);
}

function magicMime(data: Uint8Array): string | null {
  const b = Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, 16));
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && b.toString('latin1', 0, 4) === 'GIF8') return 'image/gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    return 'image/webp';
  }
  if (b.length >= 2 && b.toString('latin1', 0, 2) === 'BM') return 'image/bmp';
  return null;
}

function entryFrom(
  path: string,
  meta: { isDirectory: boolean; isFile: boolean; isSymlink: boolean; size: number; modifiedAtMs: number },
): FileEntry {
  const name = baseName(path);
  const kind = meta.isDirectory ? 'directory' : meta.isFile ? 'file' : meta.isSymlink ? 'symlink' : 'other';
  return {
    name,
    path,
    kind,
    size: meta.isDirectory ? null : meta.size,
    modifiedAtMs: meta.modifiedAtMs || null,
    hidden: isHidden(name),
    ...(meta.isSymlink ? { link: true } : {}),
  };
}

function isHidden(name: string): boolean {
  return name.startsWith('.');
}

function extensionOf(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The user's home folder and the server's working folder, from its environmentInfo ('/' if neither). */
export function homeOf(client: ExecServerClientApi): { home: string; cwd: string } {
  const info = client.environmentInfo;
  const toPath = (uri: string | null | undefined): string | null => {
    if (!uri) return null;
    try {
      return fromPathUri(uri);
    } catch {
      return null;
    }
  };
  const home = toPath(info?.userHomeDir) ?? toPath(info?.cwd) ?? '/';
  return { home, cwd: toPath(info?.cwd) ?? home };
}
