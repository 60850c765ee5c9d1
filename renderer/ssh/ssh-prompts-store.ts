// ssh's questions waiting for the user, in the order they were asked (the AppService shows one per
// environment at a time; this store only mirrors what it announced and has not yet closed).
import { create } from 'zustand';
import type { SshPromptView } from '../../shared/ipc';

interface SshPromptsState {
  list: SshPromptView[];
  setAll: (list: SshPromptView[]) => void;
  add: (prompt: SshPromptView) => void;
  remove: (id: string) => void;
}

export const useSshPrompts = create<SshPromptsState>((set) => ({
  list: [],
  setAll: (list) => set({ list }),
  // A prompt can arrive both as an event and in the list loaded at start: keep it once.
  add: (prompt) => set((s) => (s.list.some((p) => p.id === prompt.id) ? s : { list: [...s.list, prompt] })),
  remove: (id) => set((s) => ({ list: s.list.filter((p) => p.id !== id) })),
}));
