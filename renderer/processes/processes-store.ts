// Every process the AppService knows, keyed by environment and process id.
import { create } from 'zustand';
import type { ProcessKey, ProcessView } from '../../shared/ipc';
import { processKeyString } from './process-key';

interface ProcessesState {
  byKey: Record<string, ProcessView>;
  setForEnv: (envId: string, list: ProcessView[]) => void;
  upsert: (view: ProcessView) => void;
  remove: (key: ProcessKey) => void;
  removeEnv: (envId: string) => void;
}

export const useProcesses = create<ProcessesState>((set) => ({
  byKey: {},
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
      return { byKey: rest };
    }),
  removeEnv: (envId) =>
    set((s) => ({ byKey: Object.fromEntries(Object.entries(s.byKey).filter(([, p]) => p.envId !== envId)) })),
}));

export function processesOf(byKey: Record<string, ProcessView>, envId: string): ProcessView[] {
  return Object.values(byKey)
    .filter((p) => p.envId === envId)
    .sort((a, b) => a.startedAt - b.startedAt);
}
