// *New file…* (command palette): asks for a name, makes the empty file in the folder the file
// browser shows, and opens it in the editor.
import { useState, type FormEvent } from 'react';
import { Modal } from '../ui/modal';
import { ErrorLine } from '../ui/error-line';
import { useSubmit } from '../ui/use-submit';
import { makeFile } from '../editor/editor-actions';
import { filesOf, useFiles } from './files-store';

export function NewFileDialog({ envId, onClose }: { envId: string; onClose: () => void }) {
  const folder = useFiles((s) => filesOf(s.byEnv, envId).path) ?? '/';
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const submit = useSubmit(onClose);
  const error = nameError ?? submit.error;
  const busy = submit.busy;
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const trimmed = name.trim();
    const invalid = !trimmed || trimmed.includes('/') || trimmed === '.' || trimmed === '..';
    setNameError(invalid ? 'Enter a file name (without "/").' : null);
    if (invalid) return;
    await submit.run(() => makeFile(envId, trimmed));
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
