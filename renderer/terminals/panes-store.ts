// Terminal tabs and their split layouts per environment: which process shows in which pane.
// The renderer owns it; the app host stores it (layout-sync.ts), so a reloaded window or a
// restarted app reopens every pane on the same process.
import { create } from 'zustand';
import type { EnvPanes, PaneNode, TerminalTab } from '../../shared/ipc';
import { sanitizeTitle } from './tab-title';

export type { EnvPanes, PaneNode } from '../../shared/ipc';
export type SplitDirection = 'horizontal' | 'vertical';

interface PanesState {
  byEnv: Record<string, EnvPanes>;
  openTab: (envId: string, processId: string) => void;
  split: (envId: string, paneId: string, direction: SplitDirection, processId: string) => void;
  closePane: (envId: string, paneId: string) => void;
  activateTab: (envId: string, tabId: string) => void;
  cycleTab: (envId: string, step: 1 | -1) => void;
  focusPane: (envId: string, paneId: string) => void;
  /** Names the tab (null or blank: back to the program's title). */
  renameTab: (envId: string, tabId: string, name: string | null) => void;
  /** Moves the tab to `toIndex` in the strip (clamped). */
  moveTab: (envId: string, tabId: string, toIndex: number) => void;
  /** Shows only `paneId` in its tab, or every pane again if it already was the one shown. */
  toggleMaximize: (envId: string, paneId: string) => void;
  /** Shows every pane of the tab again. */
  restorePanes: (envId: string, tabId: string) => void;
  replaceProcess: (envId: string, fromProcessId: string, toProcessId: string) => void;
  /** Drops panes whose process the AppService no longer knows (e.g. after an app restart). */
  prune: (envId: string, liveProcessIds: Set<string>) => void;
  removeEnv: (envId: string) => void;
}

let counter = 0;
function newId(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

const EMPTY: EnvPanes = { tabs: [], activeTabId: null };

export function leaves(node: PaneNode): Extract<PaneNode, { type: 'leaf' }>[] {
  return node.type === 'leaf' ? [node] : [...leaves(node.children[0]), ...leaves(node.children[1])];
}

function mapTree(
  node: PaneNode,
  fn: (leaf: Extract<PaneNode, { type: 'leaf' }>) => PaneNode | null,
): PaneNode | null {
  if (node.type === 'leaf') return fn(node);
  const a = mapTree(node.children[0], fn);
  const b = mapTree(node.children[1], fn);
  if (a && b) return { ...node, children: [a, b] };
  return a ?? b;
}

function updateEnv(
  state: PanesState,
  envId: string,
  fn: (env: EnvPanes) => EnvPanes,
): Pick<PanesState, 'byEnv'> {
  return { byEnv: { ...state.byEnv, [envId]: fn(state.byEnv[envId] ?? EMPTY) } };
}

/** Rebuilds tabs through `fn`, dropping tabs that end up empty and keeping a valid active tab. */
function rebuildTabs(
  env: EnvPanes,
  fn: (leaf: Extract<PaneNode, { type: 'leaf' }>) => PaneNode | null,
): EnvPanes {
  const tabs: TerminalTab[] = [];
  for (const tab of env.tabs) {
    const root = mapTree(tab.root, fn);
    if (!root) continue;
    const ids = leaves(root).map((l) => l.id);
    const { maximizedPaneId, ...rest } = tab;
    tabs.push({
      ...rest,
      root,
      focusedPaneId: ids.includes(tab.focusedPaneId) ? tab.focusedPaneId : (ids[0] as string),
      // Maximizing a tab's only pane, or one that closed, shows nothing more: drop it.
      ...(maximizedPaneId && ids.length > 1 && ids.includes(maximizedPaneId) ? { maximizedPaneId } : {}),
    });
  }
  const oldIndex = env.tabs.findIndex((t) => t.id === env.activeTabId);
  const stillActive = tabs.some((t) => t.id === env.activeTabId);
  const activeTabId = stillActive
    ? env.activeTabId
    : (tabs[Math.min(Math.max(oldIndex, 0), tabs.length - 1)]?.id ?? null);
  return { tabs, activeTabId };
}

function withoutMaximized(tab: TerminalTab): TerminalTab {
  const { maximizedPaneId: _shown, ...rest } = tab;
  return rest;
}

export const usePanes = create<PanesState>()((set) => ({
  byEnv: {},
  openTab: (envId, processId) =>
    set((s) =>
      updateEnv(s, envId, (env) => {
        const leaf: PaneNode = { type: 'leaf', id: newId('pane'), processId };
        const tab: TerminalTab = { id: newId('tab'), root: leaf, focusedPaneId: leaf.id };
        return { tabs: [...env.tabs, tab], activeTabId: tab.id };
      }),
    ),
  split: (envId, paneId, direction, processId) =>
    set((s) =>
      updateEnv(s, envId, (env) => {
        const fresh: PaneNode = { type: 'leaf', id: newId('pane'), processId };
        const next = rebuildTabs(env, (leaf) =>
          leaf.id === paneId
            ? { type: 'split', id: newId('split'), direction, children: [leaf, fresh] }
            : leaf,
        );
        return {
          ...next,
          tabs: next.tabs.map((t) =>
            // A new pane is meant to be seen: a maximized tab shows all its panes again.
            leaves(t.root).some((l) => l.id === fresh.id)
              ? { ...withoutMaximized(t), focusedPaneId: fresh.id }
              : t,
          ),
        };
      }),
    ),
  closePane: (envId, paneId) =>
    set((s) => updateEnv(s, envId, (env) => rebuildTabs(env, (leaf) => (leaf.id === paneId ? null : leaf)))),
  activateTab: (envId, tabId) => set((s) => updateEnv(s, envId, (env) => ({ ...env, activeTabId: tabId }))),
  cycleTab: (envId, step) =>
    set((s) =>
      updateEnv(s, envId, (env) => {
        if (env.tabs.length === 0) return env;
        const index = env.tabs.findIndex((t) => t.id === env.activeTabId);
        const next = env.tabs[(index + step + env.tabs.length) % env.tabs.length] as TerminalTab;
        return { ...env, activeTabId: next.id };
      }),
    ),
  focusPane: (envId, paneId) =>
    set((s) =>
      updateEnv(s, envId, (env) => ({
        ...env,
        tabs: env.tabs.map((t) => {
          if (!leaves(t.root).some((l) => l.id === paneId)) return t;
          // Focusing a pane the maximized one hides brings the others back.
          const shown = t.maximizedPaneId === undefined || t.maximizedPaneId === paneId;
          return { ...(shown ? t : withoutMaximized(t)), focusedPaneId: paneId };
        }),
      })),
    ),
  renameTab: (envId, tabId, name) =>
    set((s) =>
      updateEnv(s, envId, (env) => ({
        ...env,
        tabs: env.tabs.map((t) => {
          if (t.id !== tabId) return t;
          const { name: _old, ...rest } = t;
          const clean = name === null ? '' : sanitizeTitle(name);
          return clean ? { ...rest, name: clean } : rest;
        }),
      })),
    ),
  moveTab: (envId, tabId, toIndex) =>
    set((s) =>
      updateEnv(s, envId, (env) => {
        const from = env.tabs.findIndex((t) => t.id === tabId);
        if (from < 0) return env;
        const to = Math.min(Math.max(toIndex, 0), env.tabs.length - 1);
        if (to === from) return env;
        const tabs = [...env.tabs];
        const [moved] = tabs.splice(from, 1);
        tabs.splice(to, 0, moved as TerminalTab);
        return { ...env, tabs };
      }),
    ),
  toggleMaximize: (envId, paneId) =>
    set((s) =>
      updateEnv(s, envId, (env) => ({
        ...env,
        tabs: env.tabs.map((t) => {
          if (t.maximizedPaneId === paneId) return withoutMaximized(t);
          const ids = leaves(t.root).map((l) => l.id);
          return ids.includes(paneId) && ids.length > 1
            ? { ...t, maximizedPaneId: paneId, focusedPaneId: paneId }
            : t;
        }),
      })),
    ),
  restorePanes: (envId, tabId) =>
    set((s) =>
      updateEnv(s, envId, (env) => ({
        ...env,
        tabs: env.tabs.map((t) => (t.id === tabId ? withoutMaximized(t) : t)),
      })),
    ),
  replaceProcess: (envId, fromProcessId, toProcessId) =>
    set((s) =>
      updateEnv(s, envId, (env) =>
        rebuildTabs(env, (leaf) =>
          leaf.processId === fromProcessId ? { ...leaf, processId: toProcessId } : leaf,
        ),
      ),
    ),
  prune: (envId, liveProcessIds) =>
    set((s) =>
      updateEnv(s, envId, (env) =>
        rebuildTabs(env, (leaf) => (liveProcessIds.has(leaf.processId) ? leaf : null)),
      ),
    ),
  removeEnv: (envId) =>
    set((s) => {
      const { [envId]: _gone, ...rest } = s.byEnv;
      return { byEnv: rest };
    }),
}));

export function envPanes(byEnv: Record<string, EnvPanes>, envId: string): EnvPanes {
  return byEnv[envId] ?? EMPTY;
}
