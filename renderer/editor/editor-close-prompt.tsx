// The question before an editor with unsaved changes closes: save, discard or cancel.
import { cancelClose, closeEditor, saveAndClose } from './editor-actions';
import type { EditorTab } from './editors-store';
import { Modal } from '../ui/modal';

export function EditorClosePrompt({ tab }: { tab: EditorTab }) {
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
