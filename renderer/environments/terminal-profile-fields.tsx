// The environment dialog's "Terminal profile" section, the same for every kind: the shell and its
// arguments, the folder shells start in, variables as NAME=value lines, and start commands. The
// fields are edited as text and checked into a TerminalProfile before saving.
import { Field } from '../ui/field';
import {
  commandLines,
  EMPTY_TERMINAL_PROFILE,
  formatVariables,
  parseVariables,
  type TerminalProfile,
} from '../../shared/ipc';

export interface ProfileFields {
  shell: string;
  args: string;
  cwd: string;
  env: string;
  startCommands: string;
}

export type ProfileErrors = Partial<Record<'args' | 'env', string>>;

export function profileFieldsFrom(profile: TerminalProfile | undefined): ProfileFields {
  const p = profile ?? EMPTY_TERMINAL_PROFILE;
  return {
    shell: p.shell,
    args: p.args.join(' '),
    cwd: p.cwd,
    env: formatVariables(p.env),
    startCommands: p.startCommands.join('\n'),
  };
}

/** The profile the fields describe, or what is wrong with them, field by field. */
export function checkProfileFields(
  fields: ProfileFields,
): { profile: TerminalProfile } | { errors: ProfileErrors } {
  const errors: ProfileErrors = {};
  const shell = fields.shell.trim();
  // Arguments are split on spaces: a shell's flags (-l, --login, -i) have none inside them.
  const args = fields.args.split(/\s+/).filter(Boolean);
  if (!shell && args.length) errors.args = 'Arguments go with a shell program; enter the shell too.';
  const vars = parseVariables(fields.env);
  if ('error' in vars) errors.env = vars.error;
  if (Object.keys(errors).length || 'error' in vars) return { errors };
  return {
    profile: {
      shell,
      args,
      cwd: fields.cwd.trim(),
      env: vars.vars,
      startCommands: commandLines(fields.startCommands),
    },
  };
}

export function TerminalProfileFields({
  fields,
  onChange,
  errors,
}: {
  fields: ProfileFields;
  onChange: (patch: Partial<ProfileFields>) => void;
  errors: ProfileErrors;
}) {
  return (
    <fieldset className="terminal-profile">
      <legend>Terminal profile</legend>
      <div className="form-grid">
        <Field id="profile-shell" label="Shell">
          <input
            id="profile-shell"
            className="mono"
            placeholder="the host's login shell"
            value={fields.shell}
            onChange={(e) => onChange({ shell: e.target.value })}
          />
        </Field>
        <Field id="profile-args" label="Arguments" error={errors.args}>
          <input
            id="profile-args"
            className="mono"
            placeholder="-l"
            value={fields.args}
            onChange={(e) => onChange({ args: e.target.value })}
            aria-invalid={!!errors.args}
          />
        </Field>
        <Field id="profile-cwd" label="Start in">
          <input
            id="profile-cwd"
            className="mono"
            placeholder="the workspace folder, else ~"
            value={fields.cwd}
            onChange={(e) => onChange({ cwd: e.target.value })}
          />
        </Field>
        <Field id="profile-env" label="Variables" error={errors.env}>
          <textarea
            id="profile-env"
            placeholder="NAME=value, one a line"
            value={fields.env}
            onChange={(e) => onChange({ env: e.target.value })}
            aria-invalid={!!errors.env}
          />
        </Field>
        <Field id="profile-start" label="Start commands">
          <textarea
            id="profile-start"
            placeholder="run before the first prompt, one a line"
            value={fields.startCommands}
            onChange={(e) => onChange({ startCommands: e.target.value })}
          />
        </Field>
      </div>
    </fieldset>
  );
}
