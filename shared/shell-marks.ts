// OSC 133, the marks an integrated shell writes around its prompts and commands (`ESC ] 133 ; A`
// prompt start, `B` command line start, `C` output start, `D ; status` the command ended), as
// the app (its command history) and the renderer (the pane's marks) read them. Tether's own
// scripts add the command line to `C` as `cmdline_url=<percent-encoded>`.
export type ShellMark =
  | { kind: 'promptStart' }
  | { kind: 'commandStart' }
  | { kind: 'outputStart'; commandLine: string | null }
  | { kind: 'commandEnd'; exitCode: number | null };

/** Longest command line kept from a mark; the shell sending it is not trusted to bound it. */
export const MAX_COMMAND_LINE_LENGTH = 2_000;

/** The mark an OSC 133 payload (what follows `133;`) stands for, or null. */
export function shellMarkOf(payload: string): ShellMark | null {
  const [letter, ...fields] = payload.split(';');
  switch (letter) {
    case 'A':
      return { kind: 'promptStart' };
    case 'B':
      return { kind: 'commandStart' };
    case 'C':
      return { kind: 'outputStart', commandLine: commandLineOf(fields) };
    case 'D': {
      const status = fields[0] !== undefined && /^-?\d{1,10}$/.test(fields[0]) ? Number(fields[0]) : null;
      return { kind: 'commandEnd', exitCode: status };
    }
    default:
      return null;
  }
}

function commandLineOf(fields: string[]): string | null {
  const field = fields.find((f) => f.startsWith('cmdline_url='));
  if (!field) return null;
  let line: string;
  try {
    line = decodeURIComponent(field.slice('cmdline_url='.length));
  } catch {
    return null;
  }
  // Shown in tabs and lists and typed again by "Run again": no control characters but tab.
  // eslint-disable-next-line no-control-regex
  line = line.replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, ' ');
  return line.length > MAX_COMMAND_LINE_LENGTH ? line.slice(0, MAX_COMMAND_LINE_LENGTH) : line;
}
