// Gives focus back to whatever held it before an overlay (a dialog, the palette) opened, once the
// overlay goes away. Without it, removing the focused overlay leaves focus on <body>, and the user's
// next keystroke lands nowhere.
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

export function useRestoreFocus<T extends HTMLElement>(): RefObject<T | null> {
  // Read during the first render: before the overlay's own autofocus moves focus into it.
  const [previous] = useState(() => document.activeElement);
  const overlay = useRef<T>(null);
  useLayoutEffect(() => {
    const node = overlay.current;
    return () => {
      // Deferred: the cleanup may run while the overlay is still in the document; the check has to
      // see where focus ended up once it is gone.
      queueMicrotask(() => {
        const now = document.activeElement;
        // A command run from the overlay may have moved focus on purpose; leave that alone.
        const lost = now === null || now === document.body || (node?.contains(now) ?? false);
        if (lost && previous instanceof HTMLElement && previous !== document.body && previous.isConnected) {
          previous.focus();
        }
      });
    };
  }, [previous]);
  return overlay;
}
