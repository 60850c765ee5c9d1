// Environments as the AppService last reported them, in the order it listed them.
import { create } from 'zustand';
import type { EnvironmentView } from '../../shared/ipc';

interface EnvironmentsState {
  loaded: boolean;
  byId: Record<string, EnvironmentView>;
  order: string[];
  setAll: (envs: EnvironmentView[]) => void;
  upsert: (env: EnvironmentView) => void;
  /** Several changes in order, in one update (one notification of the subscribers). */
  upsertMany: (envs: EnvironmentView[]) => void;
  remove: (id: string) => void;
}

export const useEnvironments = create<EnvironmentsState>((set) => ({
  loaded: false,
  byId: {},
  order: [],
  setAll: (envs) =>
    set({ loaded: true, byId: Object.fromEntries(envs.map((e) => [e.id, e])), order: envs.map((e) => e.id) }),
  upsert: (env) =>
    set((s) => ({
      byId: { ...s.byId, [env.id]: env },
      order: s.order.includes(env.id) ? s.order : [...s.order, env.id],
    })),
  upsertMany: (envs) =>
    set((s) => {
      const byId = { ...s.byId };
      // The same order while no environment is new: the sidebar's list subscribes to it, and a
      // fleet's link changes would redraw the whole list for each batch.
      let order = s.order;
      for (const env of envs) {
        if (!(env.id in byId)) {
          if (order === s.order) order = [...order];
          order.push(env.id);
        }
        byId[env.id] = env;
      }
      return { byId, order };
    }),
  remove: (id) =>
    set((s) => {
      const { [id]: _gone, ...rest } = s.byId;
      return { byId: rest, order: s.order.filter((x) => x !== id) };
    }),
}));
