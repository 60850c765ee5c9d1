// Remembers the main window's bounds (and maximised state) between launches, in the user-data dir.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { BrowserWindow, Rectangle } from 'electron';
import { screen } from 'electron';
import { writeFileAtomic } from '../app/persistence/atomic-file';

const WindowState = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(400),
  height: z.number().int().min(300),
  maximized: z.boolean(),
});
type WindowState = z.infer<typeof WindowState>;

const DEFAULT_SIZE = { width: 1280, height: 820 };
/** Bounds are saved at most this often while the user drags or resizes. */
const SAVE_DEBOUNCE_MS = 500;

export async function loadWindowState(dataDir: string): Promise<Partial<Rectangle> & { maximized: boolean }> {
  try {
    const state = WindowState.parse(JSON.parse(await fs.readFile(file(dataDir), 'utf8')));
    const visible = screen.getAllDisplays().some((d) => intersects(d.workArea, state));
    return visible ? state : { ...DEFAULT_SIZE, maximized: state.maximized };
  } catch {
    return { ...DEFAULT_SIZE, maximized: false };
  }
}

export function trackWindowState(window: BrowserWindow, dataDir: string): void {
  let timer: NodeJS.Timeout | null = null;
  const save = (): void => {
    timer = null;
    if (window.isDestroyed()) return;
    const bounds = window.getNormalBounds();
    const state: WindowState = { ...bounds, maximized: window.isMaximized() };
    void writeFileAtomic(file(dataDir), JSON.stringify(state)).catch(() => undefined);
  };
  const schedule = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, SAVE_DEBOUNCE_MS);
  };
  window.on('resize', schedule);
  window.on('move', schedule);
  window.on('maximize', schedule);
  window.on('unmaximize', schedule);
  window.on('close', () => {
    if (timer) clearTimeout(timer);
    save();
  });
}

function file(dataDir: string): string {
  return path.join(dataDir, 'window-state.json');
}

function intersects(a: Rectangle, b: Rectangle): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
