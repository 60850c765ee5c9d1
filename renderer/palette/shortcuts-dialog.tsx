// Lists every keyboard shortcut.
import { keysOf, SHORTCUTS } from './shortcuts';
import { Modal } from '../ui/modal';

export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose}>
      <table>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.id}>
              <td>{s.label}</td>
              <td>
                <kbd>{keysOf(s)}</kbd>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="modal-actions">
        <button onClick={onClose}>Close</button>
      </div>
    </Modal>
  );
}
