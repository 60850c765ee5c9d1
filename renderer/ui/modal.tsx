// A modal dialog frame: labelled, closes on Escape, keeps focus inside while open and gives it back
// to where it was when it closes.
import { useEffect, useId, type ReactNode } from 'react';
import { useRestoreFocus } from './restore-focus';

/** Whether a modal dialog is open: nothing behind it may take the keyboard focus meanwhile. */
export function modalIsOpen(): boolean {
  return document.querySelector('[role="dialog"][aria-modal="true"]') !== null;
}

export function Modal({
  title,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** For dialogs that show long lines (a log): most of the window's width instead of a form's. */
  wide?: boolean;
}) {
  const titleId = useId();
  const ref = useRestoreFocus<HTMLDivElement>();
  useEffect(() => {
    const first = ref.current?.querySelector<HTMLElement>('input, select, textarea, button');
    first?.focus();
  }, []);
  return (
    <div className="backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={ref}
        className={wide ? 'modal wide' : 'modal'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
