// What an SSH environment may name: a destination (a config alias or [user@]host, optionally
// typed as user@host:port) and extra `Key=Value` ssh options. One set of rules, used by the
// environment form (for its messages) and by the IPC contract (so nothing else gets through).

/** A destination as ssh takes it, and the port when one was typed after a colon. */
export interface SshTarget {
  destination: string;
  port?: number;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

// A leading '-' would make ssh read the word as an option, so no part may start with one.
const USER = /^[A-Za-z0-9._][A-Za-z0-9._-]{0,63}$/;
const HOST = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,252}$/;
const IPV6 = /^[0-9A-Fa-f:.]+(%[A-Za-z0-9._-]+)?$/;
const OPTION_KEY = /^[A-Za-z][A-Za-z0-9]{0,63}$/;
/** Options the SSH bootstrap sets itself: overriding them would break its one master connection. */
const OPTIONS_OWNED_BY_TETHER = ['controlmaster', 'controlpath', 'controlpersist'];
export const MAX_SSH_OPTIONS = 50;

/** Parses `alias`, `host`, `user@host`, `user@host:port` or `user@[v6addr]:port`. */
export function parseSshTarget(text: string): Checked<SshTarget> {
  const trimmed = text.trim();
  if (!trimmed) return fail('Enter a host, like user@example.com or an alias from your ssh config.');
  if (/\s/.test(trimmed)) {
    return fail('A destination has no spaces; put extra ssh options in their own field.');
  }
  const at = trimmed.lastIndexOf('@');
  const user = at >= 0 ? trimmed.slice(0, at) : null;
  const rest = at >= 0 ? trimmed.slice(at + 1) : trimmed;
  if (user !== null && !USER.test(user)) {
    return fail(
      `"${user}" is not a user name ssh accepts (letters, digits, ".", "_" and "-"; not starting with "-").`,
    );
  }
  const split = splitPort(rest);
  if (!split.ok) return split;
  const { host, port } = split.value;
  const hostOk = host.startsWith('[') ? host.endsWith(']') && IPV6.test(host.slice(1, -1)) : HOST.test(host);
  if (!hostOk) {
    return fail(
      `"${host}" is not a host name or alias (letters, digits, ".", "_" and "-"; not starting with "-").`,
    );
  }
  // ssh takes an IPv6 address without brackets as the destination; the brackets only delimit the port.
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const destination = user !== null ? `${user}@${bare}` : bare;
  return { ok: true, value: port === undefined ? { destination } : { destination, port } };
}

function splitPort(rest: string): Checked<{ host: string; port?: number }> {
  const bracketed = /^(\[[^\]]*\])(?::(.*))?$/.exec(rest);
  if (bracketed) return withPort(bracketed[1]!, bracketed[2]);
  const colons = rest.split(':').length - 1;
  if (colons === 0) return { ok: true, value: { host: rest } };
  if (colons > 1) return fail('Put an IPv6 address in brackets, like user@[2001:db8::1]:22.');
  const [host, port] = rest.split(':') as [string, string];
  return withPort(host, port);
}

function withPort(host: string, port: string | undefined): Checked<{ host: string; port?: number }> {
  if (port === undefined) return { ok: true, value: { host } };
  const checked = checkSshPort(port);
  return checked.ok ? { ok: true, value: { host, port: checked.value } } : checked;
}

export function checkSshPort(text: string): Checked<number> {
  const port = /^\d{1,5}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(port >= 1 && port <= 65_535)) return fail(`"${text}" is not a port; use a number from 1 to 65535.`);
  return { ok: true, value: port };
}

/** Checks one `Key=Value` option line (as ssh's `-o` takes it); null when it is fine. */
export function checkSshOption(line: string): string | null {
  const eq = line.indexOf('=');
  if (eq <= 0) return `"${line}" is not an option; write Key=Value, like ServerAliveInterval=15.`;
  const key = line.slice(0, eq).trim();
  const value = line.slice(eq + 1).trim();
  if (!OPTION_KEY.test(key)) return `"${key}" is not an ssh option name (letters and digits only).`;
  if (!value) return `${key} needs a value after "=".`;
  if (/[\r\n\0]/.test(value)) return `The value of ${key} must stay on one line.`;
  if (OPTIONS_OWNED_BY_TETHER.includes(key.toLowerCase())) {
    return `${key} is set by Tether for its shared connection and cannot be changed here.`;
  }
  return null;
}

/** One option per non-empty line of `text`, each checked; the first problem is the message. */
export function parseSshOptions(text: string): Checked<string[]> {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length > MAX_SSH_OPTIONS) return fail(`At most ${MAX_SSH_OPTIONS} extra options.`);
  for (const line of lines) {
    const problem = checkSshOption(line);
    if (problem) return fail(problem);
  }
  return { ok: true, value: lines.map(normalizeOption) };
}

/** `Key = Value` → `Key=Value`, the form ssh's `-o` is given. */
function normalizeOption(line: string): string {
  const eq = line.indexOf('=');
  return `${line.slice(0, eq).trim()}=${line.slice(eq + 1).trim()}`;
}

/** How a destination is shown and typed back: `user@host:port` (brackets around IPv6). */
export function formatSshTarget(target: SshTarget): string {
  if (target.port === undefined) return target.destination;
  const at = target.destination.lastIndexOf('@');
  const host = target.destination.slice(at + 1);
  const shown = host.includes(':') ? `${target.destination.slice(0, at + 1)}[${host}]` : target.destination;
  return `${shown}:${target.port}`;
}

function fail(message: string): { ok: false; message: string } {
  return { ok: false, message };
}
