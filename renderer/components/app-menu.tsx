// The app menu: every command with its shortcut, plus environment-wide actions.
import { useEffect, useRef, useState } from 'react';
import { keysOf, SHORTCUTS } from '../shortcuts';
import { runShortcut } from '../actions/shortcut-actions';
import { reconnectAll } from '../actions/environment-actions';
import { useUi } from '../stores/ui-store';

export function AppMenu() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const openDialog = useUi((s) => s.openDialog);
  useEffect(() => {
    if (open) ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);
  const run = (fn: () => void) => {
    setOpen(false);
    fn();
  };
  return (
    <>
      <button aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        Menu
      </button>
      {open && (
        <div
          ref={ref}
          className="menu"
          role="menu"
          aria-label="Menu"
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false);
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
              const index = items.indexOf(document.activeElement as HTMLElement);
              items[(index + (e.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length]?.focus();
              e.preventDefault();
            }
          }}
        >
          {SHORTCUTS.map((s) => (
            <button key={s.id} role="menuitem" onClick={() => run(() => runShortcut(s.id))}>
              <span>{s.label}</span>
              <kbd>{keysOf(s)}</kbd>
            </button>
          ))}
          <button role="menuitem" onClick={() => run(() => openDialog({ kind: 'addEnvironment' }))}>
            <span>Add environment…</span>
          </button>
          <button role="menuitem" onClick={() => run(() => void reconnectAll().catch(() => undefined))}>
            <span>Reconnect all</span>
          </button>
          <button role="menuitem" onClick={() => run(() => openDialog({ kind: 'settings' }))}>
            <span>Settings…</span>
          </button>
        </div>
      )}
    </>
  );
}
