// What opening and saving a file share: the pane content that names it, moving its panes to a new
// path, and putting the file as read from the server into its tab.
import type { EditorFile, PaneContent } from '../../shared/ipc';
import { change, dropDocument, putDocument } from './editor-documents';
import { lineEndingsOf } from './line-endings';
import { useEditors, type EditorContent } from './editors-store';
import { usePanes } from '../panes/panes-store';

export function editorContent(envId: string, path: string): PaneContent {
  return { kind: 'editor', environmentId: envId, path };
}

/** The panes that showed `from` show `to` (a symlink opened as its target, a saved copy). */
export function movePanes(envId: string, from: string, to: string): void {
  if (from !== to)
    usePanes.getState().replaceContent(envId, editorContent(envId, from), editorContent(envId, to));
}

/** CodeMirror and the editor's setup: a chunk of its own, loaded when the first file opens. */
export const editorSetup = () => import('./editor-setup');

/** Puts a file as read from the server into tab `id`: a new document, or none for binary files. */
export async function load(id: string, file: EditorFile): Promise<void> {
  const patch = useEditors.getState().patch;
  const content: EditorContent =
    file.kind === 'text'
      ? { kind: 'text', bom: file.bom, endings: lineEndingsOf(file.text), version: file.version }
      : file.kind === 'preview'
        ? { kind: 'preview', size: file.size, reason: file.reason }
        : { kind: 'binary', size: file.size, reason: file.reason };
  if (file.kind !== 'binary') {
    const setup = await editorSetup();
    putDocument(id, setup.createDocument(file.text, { readOnly: file.kind === 'preview' }));
    void setup.languageFor(baseName(file.path)).then((language) => {
      if (language) change(id, setup.languageChange(language));
    });
  } else dropDocument(id);
  patch(id, { path: file.path, name: baseName(file.path), content, conflict: null, deleted: false });
}

export function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || '/';
}
