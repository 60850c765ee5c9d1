// Short-lived notifications about things that happened out of view: a background process ended, a
// transfer finished or failed, an environment's link failed. Each goes away by itself.
import { create } from 'zustand';

export interface Toast {
  id: number;
  level: 'info' | 'error';
  message: string;
}

/** How long a toast stays; errors stay longer, to be read. */
export const TOAST_MS = { info: 6_000, error: 12_000 } as const;

interface ToastsState {
  list: Toast[];
  show: (level: Toast['level'], message: string) => void;
  dismiss: (id: number) => void;
}

let nextId = 1;

export const useToasts = create<ToastsState>((set, get) => ({
  list: [],
  show: (level, message) => {
    const id = nextId++;
    set((s) => ({ list: [...s.list, { id, level, message }] }));
    setTimeout(() => get().dismiss(id), TOAST_MS[level]);
  },
  dismiss: (id) => set((s) => ({ list: s.list.filter((t) => t.id !== id) })),
}));
