// Folders the user opened in the file browser, newest first, per environment, for Quick open.
// Kept in localStorage so they survive a reload.
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

/** How many folders Quick open remembers per environment. */
const RECENT_PATHS_LIMIT = 20;

interface RecentPathsState {
  byEnv: Record<string, string[]>;
  visited: (envId: string, path: string) => void;
}

export const useRecentPaths = create<RecentPathsState>()(
  persist(
    (set) => ({
      byEnv: {},
      visited: (envId, path) =>
        set((s) => ({
          byEnv: {
            ...s.byEnv,
            [envId]: [path, ...(s.byEnv[envId] ?? []).filter((p) => p !== path)].slice(0, RECENT_PATHS_LIMIT),
          },
        })),
    }),
    { name: 'tether.recentPaths.v1' },
  ),
);
