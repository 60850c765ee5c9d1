// The questions the file browser asks: a name for a new file or folder, a new name for an entry,
// the folder to open as the workspace, and whether to delete (one entry, or the list of the
// marked ones). Each closes itself when done.
import { useState } from 'react';
import type { FileEntry } from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { deleteEntries, makeFolder, renameEntry } from './file-actions';
import { makeFile, openWorkspaceFolder } from './workspace-actions';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { ErrorLine } from '../ui/error-line';
import { Modal } from '../ui/modal';

export type FilePrompt =
  | { kind: 'mkdir' }
  | { kind: 'newFile' }
  | { kind: 'openFolder'; initial: string }
  | { kind: 'rename'; entry: FileEntry }
  | { kind: 'delete'; entries: FileEntry[] };

export function FilePrompts({
  envId,
  prompt,
  onClose,
  focusAfterDelete,
}: {
  envId: string;
  prompt: FilePrompt | null;
  /** The prompt is done (answered or cancelled). */
  onClose: () => void;
  /** Where focus goes once the delete question closes (the entries it was on may be gone). */
  focusAfterDelete: () => void;
}) {
  switch (prompt?.kind) {
    case undefined:
      return null;
    case 'mkdir':
      return (
        <NamePrompt
          title="New folder"
          initial=""
          onClose={onClose}
          onSubmit={(name) => makeFolder(envId, name)}
        />
      );
    case 'newFile':
      return (
        <NamePrompt
          title="New file"
          initial=""
          onClose={onClose}
          onSubmit={(name) => makeFile(envId, name)}
        />
      );
    case 'openFolder':
      return (
        <NamePrompt
          title="Open folder"
          label="Folder"
          path
          initial={prompt.initial}
          onClose={onClose}
          onSubmit={(path) => openWorkspaceFolder(envId, path)}
        />
      );
    case 'rename':
      return (
        <NamePrompt
          title={`Rename ${prompt.entry.name}`}
          initial={prompt.entry.name}
          onClose={onClose}
          onSubmit={(name) => renameEntry(envId, prompt.entry.path, name)}
        />
      );
    case 'delete':
      return (
        <DeletePrompt
          envId={envId}
          entries={prompt.entries}
          onClose={() => {
            onClose();
            focusAfterDelete();
          }}
        />
      );
  }
}

function DeletePrompt({
  envId,
  entries,
  onClose,
}: {
  envId: string;
  entries: FileEntry[];
  onClose: () => void;
}) {
  const only = entries.length === 1 ? entries[0]! : null;
  return (
    <ConfirmDialog
      title={only ? `Delete ${only.name}?` : `Delete ${entries.length} items?`}
      confirmLabel="Delete"
      onClose={onClose}
      onConfirm={() =>
        deleteEntries(
          envId,
          entries.map((e) => e.path),
        )
      }
    >
      {only ? (
        <p>
          <span className="mono">{only.path}</span> will be deleted
          {only.kind === 'directory' ? ' with everything in it' : ''}. This cannot be undone.
        </p>
      ) : (
        <>
          <p>These will be deleted, folders with everything in them. This cannot be undone.</p>
          <ul className="delete-list mono">
            {entries.map((e) => (
              <li key={e.path}>{e.path}</li>
            ))}
          </ul>
        </>
      )}
    </ConfirmDialog>
  );
}

function NamePrompt(props: {
  title: string;
  /** What is asked for (default: a name). */
  label?: string;
  /** A path on the server is asked for, so "/" is allowed. */
  path?: boolean;
  initial: string;
  onClose: () => void;
  onSubmit: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState(props.initial);
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal title={props.title} onClose={props.onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const trimmed = name.trim();
          if (props.path ? !trimmed.startsWith('/') : !trimmed || trimmed.includes('/')) {
            setError(props.path ? 'Enter a full path, starting with "/".' : 'Enter a name without "/".');
            return;
          }
          try {
            await props.onSubmit(trimmed);
            props.onClose();
          } catch (err) {
            setError(errorMessage(err));
          }
        }}
      >
        <label>
          {props.label ?? 'Name'}{' '}
          <input aria-label={props.label ?? 'Name'} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <ErrorLine message={error} />
        <div className="modal-actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="primary">
            OK
          </button>
        </div>
      </form>
    </Modal>
  );
}
