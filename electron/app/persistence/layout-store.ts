// The pane layout kept for the next start (layout.json in the data dir): the last layout a
// renderer sent, written atomically. Writes never pile up: while one is on its way to disk, only
// the newest layout waits behind it. The file's format and its migrations are layout-file.ts; a
// file that cannot be used counts as no layout.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { PaneLayout } from '../../../shared/ipc';
import { writeFileAtomic } from './atomic-file';
import { decodeLayoutFile, encodeLayoutFile } from './layout-file';

export const LAYOUT_FILE_NAME = 'layout.json';

export class LayoutStore {
  readonly file: string;
  private current: PaneLayout | null = null;
  private loaded = false;
  /** A newer layout than the one on disk waits to be written. */
  private dirty = false;
  private writer: Promise<void> | null = null;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, LAYOUT_FILE_NAME);
  }

  async get(): Promise<PaneLayout | null> {
    if (!this.loaded) {
      this.loaded = true;
      this.current = await readLayout(this.file);
    }
    return this.current;
  }

  /** Takes `layout` as the current one; resolves once it (or a newer one) is on disk. */
  save(layout: PaneLayout): Promise<void> {
    this.current = layout;
    this.loaded = true;
    this.dirty = true;
    this.writer ??= this.writeWhileDirty().finally(() => {
      this.writer = null;
    });
    return this.writer;
  }

  private async writeWhileDirty(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      // save() set it before marking it dirty.
      if (this.current) await writeFileAtomic(this.file, encodeLayoutFile(this.current));
    }
  }
}

async function readLayout(file: string): Promise<PaneLayout | null> {
  try {
    return decodeLayoutFile(JSON.parse(await fs.readFile(file, 'utf8')));
  } catch {
    return null;
  }
}
