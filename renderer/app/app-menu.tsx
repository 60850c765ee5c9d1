// The app menu: every command of the registry with its shortcut.
import { useEffect, useRef, useState } from 'react';
import { appCommands } from '../palette/commands';

export function AppMenu() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
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
          {appCommands().map((c) => (
            <button key={c.id} role="menuitem" onClick={() => run(c.run)}>
              <span>{c.label}</span>
              {c.keys && <kbd>{c.keys}</kbd>}
            </button>
          ))}
        </div>
      )}
    </>
  );
}
