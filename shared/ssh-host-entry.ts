// A new `Host` entry for the user's ssh config, from what the "Add new SSH host" form holds: each
// value checked so that it stays one word on its own line (no whitespace, newline or quote can
// add a second directive or cut a value short), and the exact text that will be appended. Pure:
// the app writes it (electron/app/ssh/ssh-config-append.ts), the dialog shows it first.
import { parseSshTarget, type Checked } from './ssh-target';

/** What the user typed. */
export interface SshHostEntryDraft {
  /** The name the entry gets (`Host <alias>`), which the environment then connects to. */
  alias: string;
  /** `[user@]host[:port]`. */
  target: string;
  /** A private key file on this machine (`~/` allowed), or empty. */
  identityFile?: string | undefined;
}

/** A checked entry: its alias and the lines to append. */
export interface SshHostEntry {
  alias: string;
  text: string;
}

// A concrete alias: no wildcard, negation or list (`*`, `?`, `!`, `,`), no leading '-' or '.'.
const ALIAS = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,62}$/;
// One printable line with nothing ssh's config tokenizer treats specially inside double quotes.
const IDENTITY_FILE = /^[^\s"\\\p{Cc}][^"\\\p{Cc}]{0,1023}$/u;

export function sshHostEntry(draft: SshHostEntryDraft): Checked<SshHostEntry> {
  const alias = draft.alias.trim();
  if (!ALIAS.test(alias)) {
    return fail(
      `"${draft.alias}" cannot be a host alias: use letters, digits, ".", "_" and "-" (not starting with "-" or "."), up to 63.`,
    );
  }
  const target = parseSshTarget(draft.target);
  if (!target.ok) return target;
  const at = target.value.destination.lastIndexOf('@');
  const user = at >= 0 ? target.value.destination.slice(0, at) : null;
  const hostName = target.value.destination.slice(at + 1);
  const identityFile = draft.identityFile?.trim() ?? '';
  if (identityFile && !IDENTITY_FILE.test(identityFile)) {
    return fail('The identity file must be one path on one line, without " or \\.');
  }
  const lines = [
    `Host ${alias}`,
    `  HostName ${hostName}`,
    ...(user !== null ? [`  User ${user}`] : []),
    ...(target.value.port !== undefined ? [`  Port ${target.value.port}`] : []),
    // Quoted, so a path with spaces stays one argument.
    ...(identityFile ? [`  IdentityFile "${identityFile}"`] : []),
  ];
  return { ok: true, value: { alias, text: `${lines.join('\n')}\n` } };
}

function fail(message: string): { ok: false; message: string } {
  return { ok: false, message };
}
