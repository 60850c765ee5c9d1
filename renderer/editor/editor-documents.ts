// The live documents of the open editors: each tab's CodeMirror state (text, undo history,
// selection), the text last read from or written to the server, and the view showing it if any.
// Every change passes through commit(), which keeps the tab's dirty marker true to the text.
import type { EditorView } from 'codemirror';
import type { EditorState, Text, TransactionSpec } from '@codemirror/state';
import { editorTab, useEditors } from './editors-store';
import type { LineSeparator } from './line-endings';

interface Document {
  state: EditorState;
  /** What the server has, as far as the editor knows: the text is dirty when it differs. */
  saved: Text;
  view: EditorView | null;
}

const documents = new Map<string, Document>();

/** A document freshly read from the server (a view already showing the tab shows it at once). */
export function putDocument(id: string, state: EditorState): void {
  const view = documents.get(id)?.view ?? null;
  documents.set(id, { state, saved: state.doc, view });
  view?.setState(state);
  commit(id, state);
}

export function documentState(id: string): EditorState | null {
  return documents.get(id)?.state ?? null;
}

export function dropDocument(id: string): void {
  documents.delete(id);
}

/** The view now showing `id` (null when it goes away); its changes come back through commit(). */
export function attachView(id: string, view: EditorView | null): void {
  const doc = documents.get(id);
  if (doc) doc.view = view;
}

/** Records the state after a change, and whether the text now differs from the saved one. */
export function commit(id: string, state: EditorState): void {
  const doc = documents.get(id);
  if (!doc) return;
  doc.state = state;
  const dirty = !state.doc.eq(doc.saved);
  if (editorTab(id)?.dirty !== dirty) useEditors.getState().patch(id, { dirty });
}

/** Applies a change, through the view when one shows the document (so it redraws). */
export function change(id: string, spec: TransactionSpec): void {
  const doc = documents.get(id);
  if (!doc) return;
  if (doc.view) doc.view.dispatch(spec);
  else commit(id, doc.state.update(spec).state);
}

/** Gives the view showing `id`, if any, the keyboard focus. */
export function focusView(id: string): void {
  documents.get(id)?.view?.focus();
}

/** The server now has `text` (what was saved, or what was taken from it). */
export function markSaved(id: string, text: Text): void {
  const doc = documents.get(id);
  if (!doc) return;
  doc.saved = text;
  commit(id, doc.state);
}

/** The document's text with the file's own line breaks. */
export function documentText(id: string, separator: LineSeparator): string | null {
  const doc = documents.get(id);
  return doc ? doc.state.doc.sliceString(0, doc.state.doc.length, separator) : null;
}
