// How input is ended under a terminal that has no stdin pipe to close: the terminal's EOF
// character (VEOF, ^D on a fresh terminal). The server's `process/closeStdin` and the client's
// fallback for servers without it (codex) send the same bytes, by this one rule.

const EOF_CHAR = 0x04;
const NEWLINE = 0x0a;

/**
 * Bytes that end a terminal's input after `lastWritten` (the last byte written to it, or null).
 * In canonical mode ^D ends the input only at the start of a line; after a partial line it just
 * hands that line to the reader, so a second ^D is needed then.
 */
export function terminalEofBytes(lastWritten: number | null): Uint8Array {
  const atLineStart = lastWritten === null || lastWritten === NEWLINE;
  return Uint8Array.from(atLineStart ? [EOF_CHAR] : [EOF_CHAR, EOF_CHAR]);
}
