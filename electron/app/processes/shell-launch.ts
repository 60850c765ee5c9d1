// How a new shell on an environment starts, from its terminal profile: the program and arguments,
// the folder, the variables, and the start commands. Start commands run in a POSIX sh that then
// `exec`s the shell: they run before its first prompt, nothing is typed into the terminal (so no
// echoed command lines), any shell program works, and what they `export` or `cd` to carries over.
import type { TerminalProfile } from '../../../shared/ipc';
import { integrationCommands } from './shell-integration';

/** `$0` of the start-command wrapper: marks an argv as "the profile's commands, then the shell". */
const START_WRAPPER_NAME = 'tether-start';
/** After the commands, the wrapper becomes the shell (its argv is the wrapper's "$@"). */
const EXEC_SHELL = 'exec "$@"';

export interface ShellContext {
  /** The host's login shell (environmentInfo), or null when it names none. */
  loginShell: string | null;
  home: string;
  /** The environment's workspace folder, if one is open. */
  workspaceFolder: string | null;
  /** Whether bash, zsh and fish get Tether's shell integration (the shellIntegration setting). */
  shellIntegration: boolean;
}

export interface ShellLaunch {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

/**
 * The argv, folder and variables of a new shell. `cwd` (a split's pane folder, a folder in Files)
 * wins over the profile's; `env` given by the caller wins over the profile's variables.
 */
export function shellLaunch(
  profile: TerminalProfile,
  context: ShellContext,
  request: { cwd?: string; env?: Record<string, string> } = {},
): ShellLaunch {
  const shell = profile.shell ? [profile.shell, ...profile.args] : [context.loginShell || '/bin/sh', '-l'];
  // The integration's commands come last: they end by starting the shell themselves.
  const integration = context.shellIntegration ? integrationCommands(shell) : null;
  const commands = integration ? [...profile.startCommands, integration] : profile.startCommands;
  const argv = commands.length
    ? ['/bin/sh', '-c', `${commands.join('\n')}\n${EXEC_SHELL}`, START_WRAPPER_NAME, ...shell]
    : shell;
  const cwd =
    request.cwd ?? (expandHome(profile.cwd, context.home) || context.workspaceFolder || context.home);
  const env = { ...Object.fromEntries(profile.env.map((v) => [v.name, v.value])), ...request.env };
  return { argv, cwd, env };
}

/** The shell a start-command wrapper runs in the end, or `argv` itself when it is no wrapper. */
export function shellOfArgv(argv: string[]): string[] {
  const wrapped =
    argv[0] === '/bin/sh' &&
    argv[1] === '-c' &&
    argv[2]?.endsWith(`\n${EXEC_SHELL}`) &&
    argv[3] === START_WRAPPER_NAME &&
    argv.length > 4;
  return wrapped ? argv.slice(4) : argv;
}

/** `~` and `~/…` name the home folder, as they would in the shell itself. */
function expandHome(folder: string, home: string): string {
  if (folder === '~') return home;
  if (folder.startsWith('~/')) return `${home.replace(/\/+$/, '')}/${folder.slice(2)}`;
  return folder;
}
