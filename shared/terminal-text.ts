// Text a server or host supplied (file names, error messages, a host's stderr), made safe to write
// to a terminal: a control character could move the cursor, rewrite what was printed, or hide it
// (scp's CVE-2019-6109). Every control character is shown as a visible escape instead.

/**
 * C0 controls, DEL and C1 controls (ESC, and with it every escape sequence, is among them), and the
 * Unicode bidirectional controls, which reorder what follows them on screen so that a name can read
 * as another (`evil\u202etxt.exe` shows as `evilexe.txt`; "Trojan Source", CVE-2021-42574).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` with each control character written as `\n`, `\r`, `\t`, `\xNN` (ESC is `\x1b`) or `\uNNNN` (the bidirectional ones), so an
 * escape sequence prints as its characters and does nothing. Backslashes are left alone, so a text
 * escaped twice reads the same. `lineBreaks: true` keeps "\n" as a line break, for messages of
 * several lines (a host's stderr); a name is always escaped whole.
 */
export function escapeForTerminal(text: string, options: { lineBreaks?: boolean } = {}): string {
  return text.replace(CONTROL, (char) => {
    if (char === '\n' && options.lineBreaks) return char;
    const code = char.charCodeAt(0);
    if (code > 0xff) return `\\u${code.toString(16).padStart(4, '0')}`;
    return NAMED[char] ?? `\\x${code.toString(16).padStart(2, '0')}`;
  });
}
