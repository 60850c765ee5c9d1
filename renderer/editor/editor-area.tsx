// The editor of one environment's Files view: a tab per open file (its name, a dot while it has
// unsaved changes, a close button), the active file's pane, Ctrl+S to save it, and the question
// before a tab with unsaved changes closes: save, discard or cancel.
import type { KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { cancelClose, closeEditor, requestClose, saveAndClose, saveEditor } from './editor-actions';
import { useEditors, type EditorTab } from './editors-store';
import { EditorPane } from './editor-pane';
import { Modal } from '../ui/modal';
import { TabClose } from '../ui/tab-close';
import './editor.css';

export function EditorArea({ envId }: { envId: string }) {
  const tabs = useEditors(useShallow((s) => s.tabs.filter((t) => t.envId === envId)));
  const activeId = useEditors((s) => s.activeByEnv[envId]);
  const activate = useEditors((s) => s.activate);
  const active = tabs.find((t) => t.id === activeId) ?? null;
  const closing = tabs.find((t) => t.closing) ?? null;
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 's') {
      // Also keeps the browser's own "save page" away.
      e.preventDefault();
      if (active) void saveEditor(active.id);
    }
  };
  if (tabs.length === 0) return null;
  return (
    <section className="editor-area" aria-label="Editor" onKeyDown={onKeyDown}>
      <div className="editor-tabs" role="tablist" aria-label="Open files">
        {/* Only tabs inside the tablist: the × is for the mouse; Delete and the pane's Close button close too. */}
        {tabs.map((tab) => (
          <button
            key={tab.id}
            role="tab"
            className={`editor-tab${tab.id === activeId ? ' active' : ''}`}
            aria-selected={tab.id === activeId}
            aria-keyshortcuts="Delete"
            title={tab.path}
            onClick={() => activate(envId, tab.id)}
            onAuxClick={(e) => e.button === 1 && requestClose(tab.id)}
            onKeyDown={(e) => {
              if (e.key === 'Delete') {
                e.preventDefault();
                requestClose(tab.id);
              }
            }}
          >
            <span className="entry-text">{tab.name}</span>
            {tab.dirty && (
              <span className="editor-dirty" aria-label="unsaved changes" title="Unsaved changes">
                ●
              </span>
            )}
            <TabClose className="editor-close" title="Close" onClose={() => requestClose(tab.id)} />
          </button>
        ))}
      </div>
      {active && <EditorPane key={active.id} tab={active} />}
      {closing && <ClosePrompt tab={closing} />}
    </section>
  );
}

function ClosePrompt({ tab }: { tab: EditorTab }) {
  return (
    <Modal title={`Save changes to ${tab.name}?`} onClose={() => cancelClose(tab.id)}>
      <p>
        <span className="mono">{tab.path}</span> has changes that are not saved. If you discard them they are
        lost.
      </p>
      <div className="modal-actions">
        <button onClick={() => cancelClose(tab.id)}>Cancel</button>
        <button className="danger" onClick={() => closeEditor(tab.id)}>
          Discard
        </button>
        <button className="primary" onClick={() => void saveAndClose(tab.id)}>
          Save
        </button>
      </div>
    </Modal>
  );
}
