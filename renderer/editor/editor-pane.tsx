// One open file in the editor: its path and save state, Save (also Ctrl+S), the reason a file is
// read-only or not shown, a conflict or deletion found on save, and the CodeMirror view of its
// document. The pane it sits in may add its own controls to the toolbar.
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Download, Save, X } from 'lucide-react';
import { requestClose } from './editor-actions';
import { saveEditor } from './editor-save';
import { downloadFile } from '../transfers/transfer-actions';
import { attachView, commit, documentState } from './editor-documents';
import { separatorName } from './line-endings';
import { formatBytes, formatClock } from '../ui/format';
import type { EditorTab } from './editors-store';
import { useEnvironments } from '../environments/environments-store';
import { EditorConflict, EditorDeleted } from './editor-conflict';
import { ErrorLine } from '../ui/error-line';

export function EditorPane({ tab, controls }: { tab: EditorTab; controls?: ReactNode }) {
  const { content } = tab;
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 's') {
      // Also keeps the browser's own "save page" away.
      e.preventDefault();
      void saveEditor(tab.id);
    }
  };
  return (
    <div className="editor-pane" aria-label={tab.name} onKeyDown={onKeyDown}>
      <div className="editor-toolbar">
        <span className="editor-path mono" title={tab.path}>
          {tab.path}
        </span>
        <SaveState tab={tab} />
        {content.kind === 'text' && (
          <button
            onClick={() => void saveEditor(tab.id)}
            disabled={tab.save.kind === 'saving'}
            title="Save (Ctrl+S)"
            aria-keyshortcuts="Control+S"
          >
            <Save size={15} aria-hidden="true" />
            <span className="label">Save</span>
          </button>
        )}
        {controls}
        <button
          className="icon"
          aria-label={`Close ${tab.name}`}
          title="Close"
          onClick={() => requestClose(tab.id)}
        >
          <X size={15} aria-hidden="true" />
        </button>
      </div>
      {content.kind === 'loading' && <p className="muted editor-message">Opening {tab.name}…</p>}
      {content.kind === 'failed' && <ErrorLine message={`Could not open ${tab.name}: ${content.error}`} />}
      {content.kind === 'preview' && (
        <p className="editor-notice" role="note">
          Read-only: {formatBytes(content.size)}. {content.reason}
        </p>
      )}
      {content.kind === 'binary' && (
        <div className="editor-notice" role="note">
          <p>
            {formatBytes(content.size)}. {content.reason}
          </p>
          <button onClick={() => void downloadFile(tab.envId, tab.path, tab.name).catch(() => undefined)}>
            <Download size={15} aria-hidden="true" />
            <span className="label">Download</span>
          </button>
        </div>
      )}
      {content.kind === 'text' && content.endings.mixed && (
        <p className="editor-notice" role="note">
          This file mixes line endings; saving writes {separatorName(content.endings.separator)} throughout.
        </p>
      )}
      {tab.conflict && <EditorConflict tab={tab} theirs={tab.conflict} />}
      {tab.deleted && <EditorDeleted tab={tab} />}
      {(content.kind === 'text' || content.kind === 'preview') && <CodeMirrorHost id={tab.id} />}
    </div>
  );
}

function SaveState({ tab }: { tab: EditorTab }) {
  const linkUp = useEnvironments((s) => s.byId[tab.envId]?.link.kind === 'connected');
  const { save } = tab;
  let text: string | null = null;
  if (save.kind === 'saving') text = linkUp ? 'Saving…' : 'The link is down: saving as soon as it is back…';
  else if (save.kind === 'waitingForLink') text = `${save.error} Saving again once the link is back.`;
  else if (tab.dirty) text = 'Unsaved changes';
  else if (tab.savedAt !== null) text = `Saved at ${formatClock(tab.savedAt)}`;
  return (
    <>
      {text && (
        <span className="editor-state muted" role="status">
          {text}
        </span>
      )}
      {save.kind === 'failed' && <ErrorLine message={save.error} />}
    </>
  );
}

/** The CodeMirror view of document `id`; a new view per tab, the state (and its history) kept. */
function CodeMirrorHost({ id }: { id: string }) {
  const parent = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let view: { focus(): void; destroy(): void } | null = null;
    let gone = false;
    // The view mounts a moment later. Opening or switching to a tab focuses it, but if something
    // took the focus meanwhile (Ctrl+Shift+E focusing the file list), that focus stays where it is.
    const focusedAtStart = document.activeElement;
    // Loaded already: the document was made with it.
    void import('./editor-setup').then(({ mountView }) => {
      const state = documentState(id);
      if (gone || !parent.current || !state) return;
      const mounted = mountView(state, parent.current, (next) => commit(id, next));
      attachView(id, mounted);
      if (document.activeElement === focusedAtStart) mounted.focus();
      view = mounted;
    });
    return () => {
      gone = true;
      if (view) attachView(id, null);
      view?.destroy();
    };
  }, [id]);
  return <div ref={parent} className="editor-host" />;
}
