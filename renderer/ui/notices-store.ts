// Notices from the AppService that belong to no single command (a config file moved aside, tokens
// that cannot be encrypted), oldest first, shown until the user dismisses them.
import { create } from 'zustand';
import type { AppNotice } from '../../shared/ipc';

interface NoticesState {
  list: AppNotice[];
  setAll: (list: AppNotice[]) => void;
  add: (notice: AppNotice) => void;
  remove: (id: string) => void;
}

export const useNotices = create<NoticesState>((set) => ({
  list: [],
  setAll: (list) => set({ list }),
  // A notice can arrive both as an event and in the list loaded at start: keep it once.
  add: (notice) => set((s) => (s.list.some((n) => n.id === notice.id) ? s : { list: [...s.list, notice] })),
  remove: (id) => set((s) => ({ list: s.list.filter((n) => n.id !== id) })),
}));
