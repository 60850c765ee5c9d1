// "Add new SSH host…" in the SSH fields: an alias, `user@host:port` and an optional identity
// file become a Host entry of the user's ssh config. The app shows the exact text and the file
// first (ssh.planHostEntry); only "Append" writes it, and the environment then uses the alias.
import { useState } from 'react';
import type { SshHostEntryView } from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { Field } from '../ui/field';
import { ErrorLine } from '../ui/error-line';
import { addSshHostEntry, planSshHostEntry } from './ssh-actions';

export function SshHostEntryForm({ onAdded }: { onAdded: (entry: SshHostEntryView) => void }) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState({ alias: '', target: '', identityFile: '' });
  const [plan, setPlan] = useState<SshHostEntryView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!open) {
    return (
      <button type="button" className="ssh-add-host" onClick={() => setOpen(true)}>
        Add new SSH host…
      </button>
    );
  }
  // Any edit takes the preview away: what is appended is always what was shown.
  const set = (patch: Partial<typeof draft>) => {
    setDraft({ ...draft, ...patch });
    setPlan(null);
    setError(null);
  };
  const request = {
    alias: draft.alias,
    target: draft.target,
    ...(draft.identityFile.trim() ? { identityFile: draft.identityFile } : {}),
  };
  const run = async (step: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await step();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <fieldset className="ssh-new-host" aria-label="New SSH host">
      <legend>New SSH host</legend>
      <Field id="env-ssh-new-alias" label="Alias">
        <input
          id="env-ssh-new-alias"
          className="mono"
          placeholder="myhost"
          value={draft.alias}
          onChange={(e) => set({ alias: e.target.value })}
        />
      </Field>
      <Field id="env-ssh-new-target" label="Connects to">
        <input
          id="env-ssh-new-target"
          className="mono"
          placeholder="user@host:port"
          value={draft.target}
          onChange={(e) => set({ target: e.target.value })}
        />
      </Field>
      <Field id="env-ssh-new-identity" label="Identity file">
        <input
          id="env-ssh-new-identity"
          className="mono"
          placeholder="optional, e.g. ~/.ssh/id_ed25519"
          value={draft.identityFile}
          onChange={(e) => set({ identityFile: e.target.value })}
        />
      </Field>
      {plan && (
        <div className="ssh-new-host-plan">
          <span className="field-note">Tether will append this to {plan.file}:</span>
          <pre aria-label="Entry to append">{plan.text}</pre>
        </div>
      )}
      <ErrorLine message={error} />
      <div className="modal-actions">
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
        {plan ? (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() =>
              run(async () => {
                const added = await addSshHostEntry(request);
                setOpen(false);
                setPlan(null);
                setDraft({ alias: '', target: '', identityFile: '' });
                onAdded(added);
              })
            }
          >
            Append to {plan.file}
          </button>
        ) : (
          <button
            type="button"
            disabled={busy}
            onClick={() => run(async () => setPlan(await planSshHostEntry(request)))}
          >
            Show the entry…
          </button>
        )}
      </div>
    </fieldset>
  );
}
