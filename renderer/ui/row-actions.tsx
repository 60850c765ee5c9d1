// The actions of one table row: its most used ones as icon buttons, all of them in a "More actions"
// menu, so a narrow window never pushes an action off-screen. Every button is named after the row.
import { useCallback, useRef, useState } from 'react';
import { Ellipsis } from 'lucide-react';
import { PopupMenu, type MenuEntry, type MenuItem } from './popup-menu';

export function RowActions({ name, inline, menu }: { name: string; inline: MenuItem[]; menu: MenuEntry[] }) {
  return (
    <div className="row-actions">
      {inline.map((action) => {
        const Icon = action.icon;
        return (
          <button
            key={action.label}
            className={`icon${action.danger ? ' danger' : ''}`}
            aria-label={`${action.label} ${name}`}
            title={action.label}
            disabled={action.disabled}
            onClick={(e) => {
              e.stopPropagation();
              action.onSelect();
            }}
          >
            {Icon ? <Icon size={14} aria-hidden="true" /> : action.label}
          </button>
        );
      })}
      <MenuButton label={`More actions for ${name}`} items={menu} />
    </div>
  );
}

/** A button that opens a menu under itself and takes focus back when it closes. */
export function MenuButton({ label, items }: { label: string; items: MenuEntry[] }) {
  const button = useRef<HTMLButtonElement>(null);
  const [at, setAt] = useState<{ x: number; y: number } | null>(null);
  const close = useCallback(() => {
    setAt(null);
    button.current?.focus();
  }, []);
  return (
    <>
      <button
        ref={button}
        className="icon"
        aria-label={label}
        title="More actions"
        aria-haspopup="menu"
        aria-expanded={at !== null}
        onClick={(e) => {
          e.stopPropagation();
          const rect = e.currentTarget.getBoundingClientRect();
          setAt(at ? null : { x: rect.right - 180, y: rect.bottom + 2 });
        }}
      >
        <Ellipsis size={14} aria-hidden="true" />
      </button>
      {at && <PopupMenu label={label} items={items} at={at} onClose={close} />}
    </>
  );
}
