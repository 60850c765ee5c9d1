// Which environment and which panel the user is looking at, which dialog is open, and which tab
// is being renamed.
import { create } from 'zustand';

export type EnvPanel = 'terminals' | 'processes' | 'ports' | 'files' | 'search' | 'health';

type Dialog =
  | { kind: 'addEnvironment' }
  | { kind: 'editEnvironment'; id: string }
  | { kind: 'removeEnvironment'; id: string }
  | { kind: 'uninstallFromHost'; id: string }
  /** *Show log* of an SSH environment's connects. */
  | { kind: 'connectLog'; id: string }
  | { kind: 'shortcuts' }
  | { kind: 'commandPalette' }
  | { kind: 'quickOpen' }
  | { kind: 'settings' }
  /** The name of a new, empty file in the folder the file browser of `envId` shows. */
  | { kind: 'newFile'; envId: string }
  /** *Forward a port…* of `envId` (Ports panel, command palette). */
  | { kind: 'forwardPort'; envId: string }
  /** Panes about to close whose processes would keep running unseen: terminate or keep? */
  | { kind: 'closePanes'; envId: string; paneIds: string[] }
  /** A link clicked in a terminal of `envId`, waiting for the user's say. */
  | { kind: 'openLink'; url: string; envId: string | null };

interface UiState {
  activeEnvId: string | null;
  panelByEnv: Record<string, EnvPanel>;
  dialog: Dialog | null;
  /** Pane whose search bar is open. */
  searchPaneId: string | null;
  /** Bumped to ask the file browser to take keyboard focus. */
  fileFocusRequest: number;
  /** The environment whose Files view is to ask *Open folder* (from the palette), until it does. */
  openFolderRequest: string | null;
  /** The tab whose name is being edited in the tab strip. */
  renamingTabId: string | null;
  selectEnv: (id: string | null) => void;
  showPanel: (envId: string, panel: EnvPanel) => void;
  openDialog: (dialog: Dialog | null) => void;
  toggleSearch: (paneId: string | null) => void;
  requestFileFocus: () => void;
  requestOpenFolder: (envId: string | null) => void;
  setRenamingTab: (tabId: string | null) => void;
}

export const useUi = create<UiState>((set) => ({
  activeEnvId: null,
  panelByEnv: {},
  dialog: null,
  searchPaneId: null,
  fileFocusRequest: 0,
  openFolderRequest: null,
  renamingTabId: null,
  selectEnv: (id) => set({ activeEnvId: id }),
  showPanel: (envId, panel) => set((s) => ({ panelByEnv: { ...s.panelByEnv, [envId]: panel } })),
  openDialog: (dialog) => set({ dialog }),
  toggleSearch: (paneId) => set((s) => ({ searchPaneId: s.searchPaneId === paneId ? null : paneId })),
  requestFileFocus: () => set((s) => ({ fileFocusRequest: s.fileFocusRequest + 1 })),
  requestOpenFolder: (envId) => set({ openFolderRequest: envId }),
  setRenamingTab: (tabId) => set({ renamingTabId: tabId }),
}));

export function panelOf(panelByEnv: Record<string, EnvPanel>, envId: string): EnvPanel {
  return panelByEnv[envId] ?? 'terminals';
}
