// Text a server or host supplied (file names, error messages, a host's stderr), made safe to write
// to a terminal: a control character could move the cursor, rewrite what was printed, or hide it
// (scp's CVE-2019-6109). Every control character is shown as a visible escape instead.

/** C0 controls, DEL and C1 controls (ESC, and with it every escape sequence, is among them). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` with each control character written as `\n`, `\r`, `\t` or `\xNN` (ESC is `\x1b`), so an
 * escape sequence prints as its characters and does nothing. Backslashes are left alone, so a text
 * escaped twice reads the same. `lineBreaks: true` keeps "\n" as a line break, for messages of
 * several lines (a host's stderr); a name is always escaped whole.
 */
export function escapeForTerminal(text: string, options: { lineBreaks?: boolean } = {}): string {
  return text.replace(CONTROL, (char) => {
    if (char === '\n' && options.lineBreaks) return char;
    return NAMED[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
}
