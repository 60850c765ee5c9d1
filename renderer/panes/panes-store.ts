import { create } from 'zustand';
import type { EnvPanes, PaneContent, PaneLeaf, PaneNode, Tab } from '../../shared/ipc';
import { sanitizeTitle } from '../terminals/tab-title';

export type { EnvPanes, PaneContent, PaneLeaf, PaneNode } from '../../shared/ipc';
export type SplitDirection = 'horizontal' | 'vertical';

interface PanesState {
  byEnv: Record<string, EnvPanes>;
  /** Adds a tab at the end of the strip; it becomes the one shown unless `activate` is false. */
  openTab: (envId: string, content: PaneContent, options?: { activate?: boolean }) => void;
  split: (envId: string, paneId: string, direction: SplitDirection, content: PaneContent) => void;
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
  /** Every pane showing `from` shows `to` instead, in place (e.g. a restarted process's successor). */
  replaceContent: (envId: string, from: PaneContent, to: PaneContent) => void;
  /** Drops panes whose content `keep` refuses (e.g. a process the AppService no longer knows). */
  prune: (envId: string, keep: (content: PaneContent) => boolean) => void;
  removeEnv: (envId: string) => void;
}

let counter = 0;
function newId(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

const EMPTY: EnvPanes = { tabs: [], activeTabId: null };

export function leaves(node: PaneNode): PaneLeaf[] {
  return node.type === 'leaf' ? [node] : [...leaves(node.children[0]), ...leaves(node.children[1])];
}

export function terminalContent(processId: string): PaneContent {
  return { kind: 'terminal', processId };
}

/** The process a pane shows, if it is a terminal. */
export function processIdOf(leaf: PaneLeaf): string | undefined {
  return leaf.content.kind === 'terminal' ? leaf.content.processId : undefined;
}

/** Some pane of `env` shows process `processId`. */
export function showsProcess(env: EnvPanes, processId: string): boolean {
  return env.tabs.some((t) => leaves(t.root).some((l) => processIdOf(l) === processId));
}

export function sameContent(a: PaneContent, b: PaneContent): boolean {
  switch (a.kind) {
    case 'terminal':
      return b.kind === 'terminal' && a.processId === b.processId;
    case 'editor':
      return b.kind === 'editor' && a.environmentId === b.environmentId && a.path === b.path;
    case 'preview':
      return b.kind === 'preview' && a.forwardId === b.forwardId;
  }
}

function mapTree(node: PaneNode, fn: (leaf: PaneLeaf) => PaneNode | null): PaneNode | null {
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
function rebuildTabs(env: EnvPanes, fn: (leaf: PaneLeaf) => PaneNode | null): EnvPanes {
  const tabs: Tab[] = [];
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

function withoutMaximized(tab: Tab): Tab {
  const { maximizedPaneId: _shown, ...rest } = tab;
  return rest;
}

export const usePanes = create<PanesState>()((set) => ({
  byEnv: {},
  openTab: (envId, content, options = {}) =>
    set((s) =>
      updateEnv(s, envId, (env) => {
        const leaf: PaneNode = { type: 'leaf', id: newId('pane'), content };
        const tab: Tab = { id: newId('tab'), root: leaf, focusedPaneId: leaf.id };
        const activate = options.activate !== false || env.activeTabId === null;
        return { tabs: [...env.tabs, tab], activeTabId: activate ? tab.id : env.activeTabId };
      }),
    ),
  split: (envId, paneId, direction, content) =>
    set((s) =>
      updateEnv(s, envId, (env) => {
        const fresh: PaneNode = { type: 'leaf', id: newId('pane'), content };
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
        const next = env.tabs[(index + step + env.tabs.length) % env.tabs.length] as Tab;
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
        tabs.splice(to, 0, moved as Tab);
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
  replaceContent: (envId, from, to) =>
    set((s) =>
      updateEnv(s, envId, (env) =>
        rebuildTabs(env, (leaf) => (sameContent(leaf.content, from) ? { ...leaf, content: to } : leaf)),
      ),
    ),
  prune: (envId, keep) =>
    set((s) => {
      // Nothing to drop (the usual case: every environment's processes are listed again when it
      // reconnects, a whole fleet at once): the same state, so no pane redraws and no layout save.
      const env = s.byEnv[envId];
      if (!env || env.tabs.every((t) => leaves(t.root).every((l) => keep(l.content)))) return s;
      return updateEnv(s, envId, (e) => rebuildTabs(e, (leaf) => (keep(leaf.content) ? leaf : null)));
    }),
  removeEnv: (envId) =>
    set((s) => {
      const { [envId]: _gone, ...rest } = s.byEnv;
      return { byEnv: rest };
    }),
}));

export function envPanes(byEnv: Record<string, EnvPanes>, envId: string): EnvPanes {
  return byEnv[envId] ?? EMPTY;
}
