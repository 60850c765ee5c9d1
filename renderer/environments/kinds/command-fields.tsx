// A command environment in the dialog: a command line whose stdio speaks the protocol.
import { Field } from '../../ui/field';
import type { KindFieldsProps, KindForm } from './kind-form';

export interface CommandForm {
  commandLine: string;
}

export const COMMAND_FORM: KindForm<CommandForm> = {
  label: 'Command (stdio, e.g. over SSH)',
  pickable: true,
  testable: true,
  fromSettings: (settings) => ({ commandLine: settings?.kind === 'command' ? settings.commandLine : '' }),
  toSettings: (fields) => ({ kind: 'command', commandLine: fields.commandLine.trim() }),
  check: (fields) => (fields.commandLine.trim() ? {} : { commandLine: 'Enter the command to run.' }),
  Fields: CommandFields,
};

function CommandFields({ fields, onChange, errors }: KindFieldsProps<CommandForm>) {
  return (
    <Field id="env-command" label="Command" error={errors.commandLine}>
      <input
        id="env-command"
        className="mono"
        placeholder="ssh host tether exec-server --listen stdio"
        value={fields.commandLine}
        onChange={(e) => onChange({ commandLine: e.target.value })}
        aria-invalid={!!errors.commandLine}
      />
    </Field>
  );
}
