// *New file…* (command palette): asks for a name, makes the empty file in the folder the file
// browser shows, and opens it in the editor.
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../shared/error-message';
import { Modal } from '../ui/modal';
import { ErrorLine } from '../ui/error-line';
import { makeFile } from '../editor/editor-actions';
import { filesOf, useFiles } from './files-store';

export function NewFileDialog({ envId, onClose }: { envId: string; onClose: () => void }) {
  const folder = useFiles((s) => filesOf(s.byEnv, envId).path) ?? '/';
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || trimmed.includes('/') || trimmed === '.' || trimmed === '..') {
      setError('Enter a file name (without "/").');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await makeFile(envId, trimmed);
      onClose();
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  }
  return (
    <Modal title="New file" onClose={onClose}>
      <form onSubmit={onSubmit}>
        <label htmlFor="new-file-name">
          Name, in <span className="mono">{folder}</span>
        </label>
        <input id="new-file-name" className="mono" value={name} onChange={(e) => setName(e.target.value)} />
        <ErrorLine message={error} />
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Create
          </button>
        </div>
      </form>
    </Modal>
  );
}
