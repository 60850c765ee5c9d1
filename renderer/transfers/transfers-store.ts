// Uploads and downloads with their progress, as the AppService reports them.
import { create } from 'zustand';
import type { TransferView } from '../../shared/ipc';

interface TransfersState {
  byId: Record<string, TransferView>;
  setAll: (list: TransferView[]) => void;
  upsert: (t: TransferView) => void;
}

export const useTransfers = create<TransfersState>((set) => ({
  byId: {},
  setAll: (list) => set({ byId: Object.fromEntries(list.map((t) => [t.id, t])) }),
  upsert: (t) => set((s) => ({ byId: { ...s.byId, [t.id]: t } })),
}));
