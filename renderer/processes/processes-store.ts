// Every process the AppService knows, keyed by environment and process id, and the folder each
// shell last reported being in (OSC 7; renderer-side only, set again as replayed output is parsed).
import { create } from 'zustand';
import type { ProcessKey, ProcessView } from '../../shared/ipc';
import { processKeyString } from './process-key';

interface ProcessesState {
  byKey: Record<string, ProcessView>;
  /** The folder a process last reported (OSC 7), by process key string. */
  reportedCwd: Record<string, string>;
  setReportedCwd: (key: ProcessKey, folder: string) => void;
  setForEnv: (envId: string, list: ProcessView[]) => void;
  upsert: (view: ProcessView) => void;
  remove: (key: ProcessKey) => void;
  removeEnv: (envId: string) => void;
}

export const useProcesses = create<ProcessesState>((set) => ({
  byKey: {},
  reportedCwd: {},
  setReportedCwd: (key, folder) =>
    set((s) => {
      const id = processKeyString(key);
      return s.reportedCwd[id] === folder ? s : { reportedCwd: { ...s.reportedCwd, [id]: folder } };
    }),
  setForEnv: (envId, list) =>
    set((s) => {
      const kept = Object.entries(s.byKey).filter(([, p]) => p.envId !== envId);
      const fresh = list.map((p) => [processKeyString(p), p] as const);
      return { byKey: Object.fromEntries([...kept, ...fresh]) };
    }),
  upsert: (view) => set((s) => ({ byKey: { ...s.byKey, [processKeyString(view)]: view } })),
  remove: (key) =>
    set((s) => {
      const { [processKeyString(key)]: _gone, ...rest } = s.byKey;
      const { [processKeyString(key)]: _folder, ...folders } = s.reportedCwd;
      return { byKey: rest, reportedCwd: folders };
    }),
  removeEnv: (envId) =>
    set((s) => {
      const byKey = Object.fromEntries(Object.entries(s.byKey).filter(([, p]) => p.envId !== envId));
      return {
        byKey,
        reportedCwd: Object.fromEntries(Object.entries(s.reportedCwd).filter(([id]) => id in byKey)),
      };
    }),
}));

/** The folder a process is in: the one it last reported, else the one it was started in. */
export function cwdOf(key: ProcessKey): string | undefined {
  const { byKey, reportedCwd } = useProcesses.getState();
  const id = processKeyString(key);
  return reportedCwd[id] ?? byKey[id]?.cwd;
}

export function processesOf(byKey: Record<string, ProcessView>, envId: string): ProcessView[] {
  return Object.values(byKey)
    .filter((p) => p.envId === envId)
    .sort((a, b) => a.startedAt - b.startedAt);
}
