// The title each running program last gave its terminal (OSC 0/2), by process. Not persisted: a
// program sets it again as it runs, and its replayed output sets it again after a reload.
import { create } from 'zustand';

interface ProgramTitlesState {
  byKey: Record<string, string>;
  /** Records `title` (already cleaned); '' forgets it, so the tab falls back to the command. */
  setTitle: (key: string, title: string) => void;
  forget: (key: string) => void;
}

export const useProgramTitles = create<ProgramTitlesState>()((set) => ({
  byKey: {},
  setTitle: (key, title) =>
    set((s) => {
      if ((s.byKey[key] ?? '') === title) return s;
      const { [key]: _old, ...rest } = s.byKey;
      return { byKey: title ? { ...rest, [key]: title } : rest };
    }),
  forget: (key) =>
    set((s) => {
      if (!(key in s.byKey)) return s;
      const { [key]: _gone, ...rest } = s.byKey;
      return { byKey: rest };
    }),
}));
