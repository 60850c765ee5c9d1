// Asks what to do with a name that is already taken: Replace, Keep both (a numbered name) or Skip,
// with "apply to all" when more conflicts of the same batch follow. Escape or a click outside skips.
import { useState } from 'react';
import { useConflicts, type ConflictAnswer, type ConflictChoice } from './conflicts-store';
import { Modal } from '../ui/modal';

export function ConflictDialog(props: {
  name: string;
  dir: string;
  more: number;
  onAnswer: (answer: ConflictAnswer) => void;
}) {
  const [applyToAll, setApplyToAll] = useState(false);
  const answer = (choice: ConflictChoice) => props.onAnswer({ choice, applyToAll });
  return (
    <Modal title={`${props.name} already exists`} onClose={() => answer('skip')}>
      <p>
        <span className="mono">{props.dir}</span> already has an item named{' '}
        <span className="mono">{props.name}</span>. Replacing it cannot be undone.
      </p>
      {props.more > 0 && (
        <label className="checkbox">
          <input type="checkbox" checked={applyToAll} onChange={(e) => setApplyToAll(e.target.checked)} />
          Do this for the other {props.more} {props.more === 1 ? 'conflict' : 'conflicts'}
        </label>
      )}
      <div className="modal-actions">
        <button onClick={() => answer('skip')}>Skip</button>
        <button onClick={() => answer('keepBoth')}>Keep both</button>
        <button className="primary danger" onClick={() => answer('replace')}>
          Replace
        </button>
      </div>
    </Modal>
  );
}

/** The dialog for the question waiting in the conflicts store, if any. */
export function ConflictPrompt() {
  const pending = useConflicts((s) => s.pending);
  if (!pending) return null;
  return (
    <ConflictDialog
      key={`${pending.dir}/${pending.name}`}
      name={pending.name}
      dir={pending.dir}
      more={pending.more}
      onAnswer={pending.answer}
    />
  );
}
