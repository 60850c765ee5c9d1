// What a server says about itself (its `environmentInfo`), as labelled rows for the health panel.
// Known fields get readable values; anything a newer server adds is shown as-is at the end.

export interface InfoRow {
  label: string;
  value: string;
}

const KNOWN = new Set([
  'shell',
  'executorVersion',
  'platformOs',
  'cwd',
  'userHomeDir',
  'tempDir',
  'temporaryDirectories',
  'prependPathDirs',
  'capabilities',
]);

/** `file:///a%20b` → `/a b`; anything that is not a file URI is returned unchanged. */
function uriToPath(value: string): string {
  if (!value.startsWith('file://')) return value;
  try {
    return decodeURIComponent(new URL(value).pathname);
  } catch {
    return value;
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);
const paths = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').map(uriToPath) : [];

export function serverInfoRows(info: Record<string, unknown>): InfoRow[] {
  const rows: InfoRow[] = [];
  const add = (label: string, value: string | null): void => {
    if (value !== null) rows.push({ label, value });
  };
  const shell = info.shell as { name?: unknown; path?: unknown } | undefined;
  if (shell && typeof shell === 'object') {
    const name = text(shell.name);
    const path = text(shell.path);
    add('Shell', name && path && name !== path ? `${name} (${path})` : (path ?? name));
  }
  const version = text(info.executorVersion);
  add('Server version', version === '0.0.0' ? 'unknown' : version);
  add('OS', text(info.platformOs));
  const cwd = text(info.cwd);
  add('Server directory', cwd && uriToPath(cwd));
  const home = text(info.userHomeDir);
  add('Home', home && uriToPath(home));
  const temp = text(info.tempDir);
  add('Temporary directory', temp && uriToPath(temp));
  const tmpdirs = paths(info.temporaryDirectories);
  if (tmpdirs.length > 0) add('TMPDIR', tmpdirs.join(':'));
  const prepend = paths(info.prependPathDirs);
  if (prepend.length > 0) add('Put first on PATH', prepend.join(':'));
  if (info.capabilities !== undefined) {
    const capabilities = info.capabilities;
    const enabled =
      capabilities && typeof capabilities === 'object'
        ? Object.entries(capabilities)
            .filter(([, on]) => on === true)
            .map(([name]) => name)
            .sort()
        : [];
    add('Capabilities', enabled.length > 0 ? enabled.join(', ') : 'none advertised');
  }
  for (const [key, value] of Object.entries(info)) {
    if (KNOWN.has(key) || value === null || value === undefined) continue;
    add(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return rows;
}
