// Terminal settings: scrollback, font size, copy-on-select, theme, and the hosts whose links open
// without asking (taken back one by one).
import { useState } from 'react';
import { errorMessage } from '../../shared/error-message';
import { saveSettings } from '../actions/settings-actions';
import { useSettings } from '../stores/settings-store';
import { Modal } from './modal';
import { ErrorLine } from './error-line';

export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const current = useSettings((s) => s.settings);
  const [draft, setDraft] = useState(current);
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal title="Settings" onClose={onClose}>
      <div className="form-grid">
        <label htmlFor="set-scrollback">Scrollback lines</label>
        <input
          id="set-scrollback"
          type="number"
          min={100}
          max={1_000_000}
          value={draft.scrollback}
          onChange={(e) => setDraft({ ...draft, scrollback: Number(e.target.value) })}
        />
        <label htmlFor="set-font">Font size</label>
        <input
          id="set-font"
          type="number"
          min={8}
          max={32}
          value={draft.fontSize}
          onChange={(e) => setDraft({ ...draft, fontSize: Number(e.target.value) })}
        />
        <label htmlFor="set-copy">Copy on select</label>
        <input
          id="set-copy"
          type="checkbox"
          checked={draft.copyOnSelect}
          onChange={(e) => setDraft({ ...draft, copyOnSelect: e.target.checked })}
        />
        <label htmlFor="set-theme">Theme</label>
        <select
          id="set-theme"
          value={draft.theme}
          onChange={(e) => setDraft({ ...draft, theme: e.target.value as typeof draft.theme })}
        >
          <option value="system">Follow the system</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </div>
      <h3>Links opened without asking</h3>
      {draft.trustedLinkHosts.length === 0 ? (
        <p className="muted">None: Tether asks before opening any link a program prints.</p>
      ) : (
        <ul className="trusted-hosts">
          {draft.trustedLinkHosts.map((host) => (
            <li key={host}>
              <span>{host}</span>
              <button
                aria-label={`Ask again for ${host}`}
                onClick={() =>
                  setDraft({ ...draft, trustedLinkHosts: draft.trustedLinkHosts.filter((h) => h !== host) })
                }
              >
                Ask again
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorLine message={error} />
      <div className="modal-actions">
        <button onClick={onClose}>Cancel</button>
        <button
          className="primary"
          onClick={async () => {
            try {
              await saveSettings(draft);
              onClose();
            } catch (e) {
              setError(errorMessage(e));
            }
          }}
        >
          Save
        </button>
      </div>
    </Modal>
  );
}
