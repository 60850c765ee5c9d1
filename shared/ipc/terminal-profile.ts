// An environment's terminal profile: what every new shell on it starts as (program and arguments,
// working folder, variables, commands run first). Kind-independent, stored with the environment; a
// config file written before profiles existed loads with the empty profile, which means "as before":
// the host's login shell in the workspace folder (or home), with no extra variables or commands.
import { z } from 'zod';

/** POSIX's portable variable names: what every shell can `export` and read back as `$NAME`. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Why `name` cannot be an environment variable's name, or null when it can. */
export function variableNameProblem(name: string): string | null {
  if (name === '') return 'A variable needs a name before the =.';
  if (!VARIABLE_NAME.test(name))
    return `"${name}" is not a valid variable name: use letters, digits and _, not starting with a digit.`;
  return null;
}

export const ProfileVariable = z.object({
  name: z
    .string()
    .max(256)
    .superRefine((name, ctx) => {
      const problem = variableNameProblem(name);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  value: z.string().max(32_768),
});
export type ProfileVariable = z.infer<typeof ProfileVariable>;

export const TerminalProfile = z.object({
  /** The shell program; '' means the host's login shell (started with `-l`). */
  shell: z.string().max(4096),
  /** Its arguments (used only with `shell`). */
  args: z.array(z.string().max(4096)).max(64),
  /** Where shells start; '' means the workspace folder, or home without one. `~` is home. */
  cwd: z.string().max(4096),
  env: z
    .array(ProfileVariable)
    .max(200)
    .superRefine((vars, ctx) => {
      const seen = new Set<string>();
      for (const [index, { name }] of vars.entries()) {
        if (seen.has(name))
          ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `${name} is set twice.` });
        seen.add(name);
      }
    }),
  /** Shell lines run in order before the shell's first prompt. */
  startCommands: z.array(z.string().min(1).max(4096)).max(100),
});
export type TerminalProfile = z.infer<typeof TerminalProfile>;

export const EMPTY_TERMINAL_PROFILE: TerminalProfile = {
  shell: '',
  args: [],
  cwd: '',
  env: [],
  startCommands: [],
};

/** The variables as the dialog shows them: one `NAME=value` a line. */
export function formatVariables(vars: ProfileVariable[]): string {
  return vars.map((v) => `${v.name}=${v.value}`).join('\n');
}

/**
 * The dialog's `NAME=value` lines as variables (blank lines skipped; the value is everything after
 * the first =, kept as typed), or the first line's problem.
 */
export function parseVariables(text: string): { vars: ProfileVariable[] } | { error: string } {
  const vars: ProfileVariable[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const at = line.indexOf('=');
    if (at < 0) return { error: `Line ${index + 1}: write NAME=value.` };
    const name = line.slice(0, at).trim();
    const problem = variableNameProblem(name);
    if (problem) return { error: `Line ${index + 1}: ${problem}` };
    if (vars.some((v) => v.name === name)) return { error: `Line ${index + 1}: ${name} is set twice.` };
    vars.push({ name, value: line.slice(at + 1) });
  }
  return { vars };
}

/** Non-blank lines, trimmed at the end: the start commands, or arguments split on spaces. */
export function commandLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
}
