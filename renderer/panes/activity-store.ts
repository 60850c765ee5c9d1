// What happened in a terminal while no one was looking, by process: output arrived, or the process
// ended. Tabs show it as a marker until the tab is seen (activity-tracking.ts decides when).
import { create } from 'zustand';

/** 'exited' outranks 'output': an ended process is the news, not its last lines. */
export type UnseenActivity = 'output' | 'exited';

interface ActivityState {
  unseenByKey: Record<string, UnseenActivity>;
  note: (key: string, activity: UnseenActivity) => void;
  /** Clears the markers of `keys` (they were just seen). */
  markSeen: (keys: Iterable<string>) => void;
}

export const useActivity = create<ActivityState>()((set) => ({
  unseenByKey: {},
  note: (key, activity) =>
    set((s) => {
      const current = s.unseenByKey[key];
      if (current === activity || current === 'exited') return s;
      return { unseenByKey: { ...s.unseenByKey, [key]: activity } };
    }),
  markSeen: (keys) =>
    set((s) => {
      let next: Record<string, UnseenActivity> | null = null;
      for (const key of keys) {
        if (!(key in (next ?? s.unseenByKey))) continue;
        next ??= { ...s.unseenByKey };
        delete next[key];
      }
      return next ? { unseenByKey: next } : s;
    }),
}));
