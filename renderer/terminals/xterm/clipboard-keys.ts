// The terminal's copy and paste keys. Ctrl+C and Ctrl+V belong to the program (interrupt, literal
// next), so copying and pasting take Shift as in other Linux terminals, plus Ctrl+Insert and
// Shift+Insert, which every browser leaves to the page.

export type ClipboardAction = 'copy' | 'paste';

export function clipboardAction(
  e: Pick<KeyboardEvent, 'type' | 'key' | 'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey'>,
): ClipboardAction | null {
  if (e.type !== 'keydown' || e.altKey) return null;
  const key = e.key.toLowerCase();
  const ctrl = e.ctrlKey || e.metaKey;
  if (ctrl && e.shiftKey && key === 'c') return 'copy';
  if (ctrl && e.shiftKey && key === 'v') return 'paste';
  if (ctrl && !e.shiftKey && key === 'insert') return 'copy';
  if (e.shiftKey && !ctrl && key === 'insert') return 'paste';
  return null;
}
