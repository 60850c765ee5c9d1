// What each preview view last said about itself (preview.open's answer, then preview.changed): the
// address, title, loading and history the preview pane's toolbar shows. Only the desktop app has views.
import { create } from 'zustand';
import type { PreviewState } from '../../shared/ipc';

interface PreviewsState {
  byId: Record<string, PreviewState>;
  set: (state: PreviewState) => void;
  forget: (ids: ReadonlySet<string>) => void;
}

export const usePreviews = create<PreviewsState>((set) => ({
  byId: {},
  set: (state) => set((s) => ({ byId: { ...s.byId, [state.id]: state } })),
  forget: (ids) =>
    set((s) => ({ byId: Object.fromEntries(Object.entries(s.byId).filter(([id]) => !ids.has(id))) })),
}));
