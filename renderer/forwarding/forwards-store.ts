// The port forwards of each environment as the AppService last reported them (forwards.list, then
// forwards.changed, which always carries an environment's whole list).
import { create } from 'zustand';
import type { ForwardView } from '../../shared/ipc';

interface ForwardsState {
  byEnv: Record<string, ForwardView[]>;
  setForEnv: (envId: string, list: ForwardView[]) => void;
  removeEnv: (envId: string) => void;
}

export const useForwards = create<ForwardsState>((set) => ({
  byEnv: {},
  setForEnv: (envId, list) => set((s) => ({ byEnv: { ...s.byEnv, [envId]: list } })),
  removeEnv: (envId) =>
    set((s) => {
      const { [envId]: _gone, ...rest } = s.byEnv;
      return { byEnv: rest };
    }),
}));

const NONE: ForwardView[] = [];

export function forwardsOf(byEnv: Record<string, ForwardView[]>, envId: string): ForwardView[] {
  return byEnv[envId] ?? NONE;
}
