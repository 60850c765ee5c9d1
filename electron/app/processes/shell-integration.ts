// Shell integration for the shells Tether starts: bash, zsh and fish are started so that they
// read the user's own startup files unchanged and then mark each prompt and command (OSC 133) and
// report their folder (OSC 7). The scripts travel inside the start command itself (a POSIX sh
// writes them once into a private folder on the host), so it works on every server, codex's too:
// the marks are in-band output. Any other shell, or one started with other arguments, starts as
// before.
import { createHash } from 'node:crypto';
import bashRc from './shell-integration/bashrc.bash';
import zshEnv from './shell-integration/zshenv.zsh';
import zshMarks from './shell-integration/tether.zsh';
import fishConf from './shell-integration/tether.fish';

export type IntegratedShell = 'bash' | 'zsh' | 'fish';

/** Arguments a shell may carry and still be integrated (a login or interactive shell, nothing else). */
const PLAIN_SHELL_ARGS = new Set(['-l', '--login', '-i']);

/** The scripts' files under the host folder, per shell (the folder is named after their contents). */
const FILES: Record<IntegratedShell, Array<{ path: string; text: string }>> = {
  bash: [{ path: 'bashrc', text: bashRc }],
  zsh: [
    { path: 'zsh/.zshenv', text: zshEnv },
    { path: 'zsh/tether.zsh', text: zshMarks },
  ],
  fish: [{ path: 'fish/fish/vendor_conf.d/tether.fish', text: fishConf }],
};

/** One folder per version of the scripts: a host shared by two Tether versions keeps both. */
const VERSION = createHash('sha256').update(JSON.stringify(FILES)).digest('hex').slice(0, 16);

const HEREDOC_END = '__TETHER_SHELL_INTEGRATION_END__';

/** The shell `shell` (its argv) is, when Tether can integrate it. */
export function integratedShellOf(shell: string[]): IntegratedShell | null {
  const name = (shell[0] ?? '').split('/').pop();
  if (name !== 'bash' && name !== 'zsh' && name !== 'fish') return null;
  return shell.slice(1).every((arg) => PLAIN_SHELL_ARGS.has(arg)) ? name : null;
}

/**
 * The sh commands that write the scripts on the host and start the shell `"$@"` with them; they
 * run last in the start-command wrapper. Where the private folder cannot be had (a read-only
 * /tmp, a folder of that name owned by someone else), nothing is written and the wrapper's final
 * `exec "$@"` starts the shell as it is.
 */
export function integrationCommands(shell: string[]): string | null {
  const kind = integratedShellOf(shell);
  if (!kind) return null;
  const puts = FILES[kind].map(
    ({ path, text }) =>
      `__tether_put ${path} <<'${HEREDOC_END}'\n${text.endsWith('\n') ? text : `${text}\n`}${HEREDOC_END}`,
  );
  return [
    '__tether_root="${TMPDIR:-/tmp}/tether-shell-$(id -u)"',
    'if [ ! -L "$__tether_root" ] && { [ -d "$__tether_root" ] || mkdir -m 700 "$__tether_root" 2>/dev/null; } && [ -O "$__tether_root" ]; then',
    `__tether_dir="$__tether_root/${VERSION}"`,
    // Written once per version, each file complete before its name appears (two shells may start at once).
    '__tether_put() { if [ -f "$__tether_dir/$1" ]; then cat >/dev/null; else cat >"$__tether_dir/$1.$$" && mv -f "$__tether_dir/$1.$$" "$__tether_dir/$1"; fi; }',
    `mkdir -p ${FILES[kind].map(({ path }) => `"$__tether_dir/${path.replace(/\/?[^/]*$/, '')}"`).join(' ')} 2>/dev/null`,
    ...puts,
    `if ${FILES[kind].map(({ path }) => `[ -r "$__tether_dir/${path}" ]`).join(' && ')}; then`,
    launch(kind, shell),
    'fi',
    'fi',
  ].join('\n');
}

/** Starts the shell with its scripts (the wrapper's "$@" is the shell's argv). */
function launch(kind: IntegratedShell, shell: string[]): string {
  switch (kind) {
    case 'bash': {
      // A login bash reads no --rcfile: the rc reads the login files itself.
      const login = shell.includes('-l') || shell.includes('--login');
      return `${login ? '__TETHER_BASH_LOGIN=1 ' : ''}exec "$1" --rcfile "$__tether_dir/bashrc" -i`;
    }
    case 'zsh':
      return [
        'if [ -n "${ZDOTDIR+set}" ]; then export __TETHER_ZDOTDIR="$ZDOTDIR"; fi',
        'ZDOTDIR="$__tether_dir/zsh" exec "$@"',
      ].join('\n');
    case 'fish':
      return '__TETHER_XDG_DATA_DIRS="${XDG_DATA_DIRS-}" XDG_DATA_DIRS="$__tether_dir/fish:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" exec "$@"';
  }
}
