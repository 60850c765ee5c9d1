// A popup menu (row overflow menus, context menus): shown in a portal so no scrolling container
// clips it, kept inside the window, driven by the keyboard (arrows, Home/End, Enter, Escape, Tab)
// and closed by a click outside. The opener gets focus back on close.
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { LucideIcon } from 'lucide-react';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  icon?: LucideIcon;
  /** Shown at the right, e.g. "Ctrl+Shift+C". */
  keys?: string;
  danger?: boolean;
  disabled?: boolean;
}

export type MenuEntry = MenuItem | 'separator';

/** Keeps the menu this far from the window's edges. */
const EDGE_MARGIN_PX = 4;

export function PopupMenu(props: {
  label: string;
  items: MenuEntry[];
  /** Where to open, in viewport coordinates (the menu's top-left, moved in if it would overflow). */
  at: { x: number; y: number };
  onClose: () => void;
}) {
  const { label, items, at, onClose } = props;
  const ref = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState(at);

  useLayoutEffect(() => {
    const menu = ref.current;
    if (!menu) return;
    const { width, height } = menu.getBoundingClientRect();
    setPosition({
      x: Math.max(EDGE_MARGIN_PX, Math.min(at.x, window.innerWidth - width - EDGE_MARGIN_PX)),
      y: Math.max(EDGE_MARGIN_PX, Math.min(at.y, window.innerHeight - height - EDGE_MARGIN_PX)),
    });
  }, [at.x, at.y]);

  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]:not(:disabled)')?.focus();
    const onPointer = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) onClose();
    };
    document.addEventListener('mousedown', onPointer, true);
    window.addEventListener('blur', onClose);
    return () => {
      document.removeEventListener('mousedown', onPointer, true);
      window.removeEventListener('blur', onClose);
    };
  }, [onClose]);

  const move = (step: 1 | -1 | 'first' | 'last') => {
    const enabled = [
      ...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not(:disabled)') ?? []),
    ];
    if (enabled.length === 0) return;
    const index = enabled.indexOf(document.activeElement as HTMLElement);
    const next =
      step === 'first'
        ? 0
        : step === 'last'
          ? enabled.length - 1
          : (index + step + enabled.length) % enabled.length;
    enabled[next]?.focus();
  };

  const menu = (
    <div
      ref={ref}
      className="popup-menu"
      role="menu"
      aria-label={label}
      style={{ left: position.x, top: position.y }}
      onContextMenu={(e) => e.preventDefault()}
      onKeyDown={(e) => {
        const keys: Record<string, () => void> = {
          ArrowDown: () => move(1),
          ArrowUp: () => move(-1),
          Home: () => move('first'),
          End: () => move('last'),
          Escape: onClose,
          Tab: onClose,
        };
        const action = keys[e.key];
        if (!action) return;
        e.preventDefault();
        e.stopPropagation();
        action();
      }}
    >
      {items.map((item, i) =>
        item === 'separator' ? (
          <div key={`sep-${i}`} role="separator" className="menu-separator" />
        ) : (
          <MenuRow key={item.label} item={item} onDone={onClose} />
        ),
      )}
    </div>
  );
  return createPortal(menu, document.body);
}

function MenuRow({ item, onDone }: { item: MenuItem; onDone: () => void }): ReactNode {
  const Icon = item.icon;
  return (
    <button
      role="menuitem"
      className={item.danger ? 'danger' : undefined}
      disabled={item.disabled}
      aria-keyshortcuts={item.keys}
      onClick={() => {
        onDone();
        item.onSelect();
      }}
    >
      <span className="menu-icon" aria-hidden="true">
        {Icon && <Icon size={14} />}
      </span>
      <span className="menu-label">{item.label}</span>
      {item.keys && <kbd aria-hidden="true">{item.keys}</kbd>}
    </button>
  );
}

/** Where a context menu opens: at the pointer, or under the element for Shift+F10 / the menu key. */
export function contextMenuPoint(e: { clientX: number; clientY: number; currentTarget: Element }): {
  x: number;
  y: number;
} {
  if (e.clientX !== 0 || e.clientY !== 0) return { x: e.clientX, y: e.clientY };
  const rect = e.currentTarget.getBoundingClientRect();
  return { x: rect.left + 8, y: rect.top + Math.min(rect.height, 24) };
}
