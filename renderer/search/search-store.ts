// Quick open's file listings and Find in files' form and results, per environment.
import { create } from 'zustand';
import type { TextSearchResult, WorkspaceFiles } from '../../shared/ipc';

export type FileListing =
  | { kind: 'loading'; root: string }
  | { kind: 'ready'; listing: WorkspaceFiles }
  | { kind: 'failed'; root: string; error: string };

export interface FindForm {
  query: string;
  caseSensitive: boolean;
  regex: boolean;
  wholeWord: boolean;
  include: string;
  /** The folder searched; empty: the workspace root. */
  root: string;
}

export type FindState =
  | { kind: 'idle' }
  | { kind: 'running'; searchId: string; root: string }
  | { kind: 'done'; root: string; result: TextSearchResult }
  | { kind: 'failed'; error: string };

export const EMPTY_FORM: FindForm = {
  query: '',
  caseSensitive: false,
  regex: false,
  wholeWord: false,
  include: '',
  root: '',
};

interface SearchState {
  listings: Record<string, FileListing>;
  forms: Record<string, FindForm>;
  finds: Record<string, FindState>;
  /** Bumped to ask the Find in files panel to focus its query field. */
  findFocusRequest: number;
  setListing: (envId: string, listing: FileListing) => void;
  patchForm: (envId: string, patch: Partial<FindForm>) => void;
  setFind: (envId: string, find: FindState) => void;
  requestFindFocus: () => void;
}

export const useSearch = create<SearchState>((set) => ({
  listings: {},
  forms: {},
  finds: {},
  findFocusRequest: 0,
  setListing: (envId, listing) => set((s) => ({ listings: { ...s.listings, [envId]: listing } })),
  patchForm: (envId, patch) =>
    set((s) => ({ forms: { ...s.forms, [envId]: { ...(s.forms[envId] ?? EMPTY_FORM), ...patch } } })),
  setFind: (envId, find) => set((s) => ({ finds: { ...s.finds, [envId]: find } })),
  requestFindFocus: () => set((s) => ({ findFocusRequest: s.findFocusRequest + 1 })),
}));

export function formOf(forms: Record<string, FindForm>, envId: string): FindForm {
  return forms[envId] ?? EMPTY_FORM;
}

const IDLE: FindState = { kind: 'idle' };

export function findOf(finds: Record<string, FindState>, envId: string): FindState {
  return finds[envId] ?? IDLE;
}
