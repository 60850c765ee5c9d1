// The open editor documents of every environment (each shown in an editor pane of the main area): what each holds (text with its version,
// a read-only preview, or why not), whether it has unsaved changes, its save and any conflict.
// The document itself lives in its CodeMirror state (editor/editor-documents.ts).
import { create } from 'zustand';
import type { EditorFile, EditVersion } from '../../shared/ipc';
import type { LineEndings } from './line-endings';

export type EditorContent =
  | { kind: 'loading' }
  | { kind: 'failed'; error: string }
  | { kind: 'text'; bom: boolean; endings: LineEndings; version: EditVersion }
  | { kind: 'preview'; size: number; reason: string }
  | { kind: 'binary'; size: number; reason: string };

export type SaveStatus =
  | { kind: 'idle' }
  | { kind: 'saving' }
  /** The link was down: the save is tried again as soon as it is back. */
  | { kind: 'waitingForLink'; error: string }
  | { kind: 'failed'; error: string };

export interface EditorTab {
  id: string;
  envId: string;
  /** The file on the server (symlinks resolved once opened); a numbered copy after *Save as copy*. */
  path: string;
  name: string;
  content: EditorContent;
  dirty: boolean;
  save: SaveStatus;
  /** The file changed on the server since it was read: this is how it is now. */
  conflict: EditorFile | null;
  /** The file was gone from the server at the last save. */
  deleted: boolean;
  /** Closing waits for the user's say on unsaved changes. */
  closing: boolean;
  savedAt: number | null;
}

interface EditorsState {
  tabs: EditorTab[];
  activeByEnv: Record<string, string>;
  add: (tab: EditorTab) => void;
  patch: (id: string, patch: Partial<EditorTab> | ((tab: EditorTab) => Partial<EditorTab>)) => void;
  remove: (id: string) => void;
  activate: (envId: string, id: string) => void;
}

export const useEditors = create<EditorsState>((set) => ({
  tabs: [],
  activeByEnv: {},
  add: (tab) =>
    set((s) => ({ tabs: [...s.tabs, tab], activeByEnv: { ...s.activeByEnv, [tab.envId]: tab.id } })),
  patch: (id, patch) =>
    set((s) => ({
      tabs: s.tabs.map((tab) =>
        tab.id === id ? { ...tab, ...(typeof patch === 'function' ? patch(tab) : patch) } : tab,
      ),
    })),
  remove: (id) =>
    set((s) => {
      const gone = s.tabs.find((t) => t.id === id);
      if (!gone) return {};
      const tabs = s.tabs.filter((t) => t.id !== id);
      const activeByEnv = { ...s.activeByEnv };
      if (activeByEnv[gone.envId] === id) {
        // The neighbour takes over, as closing a browser tab does.
        const siblings = s.tabs.filter((t) => t.envId === gone.envId);
        const index = siblings.findIndex((t) => t.id === id);
        const next = siblings[index + 1] ?? siblings[index - 1];
        if (next && next.id !== id) activeByEnv[gone.envId] = next.id;
        else delete activeByEnv[gone.envId];
      }
      return { tabs, activeByEnv };
    }),
  activate: (envId, id) => set((s) => ({ activeByEnv: { ...s.activeByEnv, [envId]: id } })),
}));

export function editorTab(id: string): EditorTab | undefined {
  return useEditors.getState().tabs.find((t) => t.id === id);
}
