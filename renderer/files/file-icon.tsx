// The icon of a file-list entry (SVG, so it never depends on an emoji font): folder, link, or a
// file icon by kind of content guessed from the name's extension.
import {
  File,
  FileArchive,
  FileCode,
  FileImage,
  FileSymlink,
  FileText,
  Folder,
  type LucideIcon,
} from 'lucide-react';
import type { FileEntry } from '../../shared/ipc';

const BY_EXTENSION: Record<string, LucideIcon> = {};
for (const ext of ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg', 'bmp', 'ico']) BY_EXTENSION[ext] = FileImage;
for (const ext of ['zip', 'gz', 'tgz', 'xz', 'bz2', 'zst', 'tar', '7z', 'rar'])
  BY_EXTENSION[ext] = FileArchive;
for (const ext of ['txt', 'md', 'log', 'csv', 'rst']) BY_EXTENSION[ext] = FileText;
for (const ext of [
  'ts',
  'tsx',
  'js',
  'jsx',
  'mjs',
  'py',
  'rs',
  'go',
  'c',
  'h',
  'cpp',
  'java',
  'sh',
  'json',
  'yml',
  'yaml',
  'toml',
  'html',
  'css',
])
  BY_EXTENSION[ext] = FileCode;

export function iconFor(entry: Pick<FileEntry, 'kind' | 'name'>): LucideIcon {
  if (entry.kind === 'directory') return Folder;
  if (entry.kind === 'symlink') return FileSymlink;
  const dot = entry.name.lastIndexOf('.');
  return (dot > 0 && BY_EXTENSION[entry.name.slice(dot + 1).toLowerCase()]) || File;
}

export function FileIcon({ entry }: { entry: Pick<FileEntry, 'kind' | 'name'> }) {
  const Icon = iconFor(entry);
  return <Icon className={`file-icon file-icon-${entry.kind}`} size={15} aria-hidden="true" />;
}
