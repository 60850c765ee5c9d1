// The kinds of environment the dialog offers, each with its form (kind-form.ts), in the order of
// the "Connect via" list. Adding a kind is one entry here and one fields component.
import type { ReactNode } from 'react';
import type { EnvironmentSettings } from '../../../shared/ipc';
import { sshFormFromSettings, sshSettingsFromForm, type SshFormFields } from '../../ssh/ssh-form';
import { SshConnectStages } from '../../ssh/ssh-connect-stages';
import { SshFields } from '../../ssh/ssh-fields';
import { CONTAINER_FORM, type ContainerForm } from '../../containers/container-form';
import { COMMAND_FORM, type CommandForm } from './command-fields';
import { EXEC_FORM, type ExecForm } from './exec-fields';
import type { FieldErrors, KindFieldsProps, KindForm } from './kind-form';
import { WS_FORM, type WsForm } from './ws-fields';

export type Kind = EnvironmentSettings['kind'];

/** The fields of every kind, so switching kinds back and forth keeps what was typed in each. */
export interface KindFields {
  ssh: SshFormFields;
  ws: WsForm;
  command: CommandForm;
  container: ContainerForm;
  exec: ExecForm;
  local: Record<string, never>;
}

const SSH_FORM: KindForm<SshFormFields> = {
  label: 'SSH (Tether installs its server on the host)',
  pickable: true,
  testable: true,
  fromSettings: sshFormFromSettings,
  toSettings: (fields) => {
    const checked = sshSettingsFromForm(fields);
    return checked.ok ? checked.settings : null;
  },
  check: (fields) => {
    const checked = sshSettingsFromForm(fields);
    return checked.ok ? {} : checked.errors;
  },
  Fields: ({ fields, onChange, errors, suggestName }: KindFieldsProps<SshFormFields>) => (
    <SshFields fields={fields} errors={errors} onChange={onChange} onPick={suggestName} />
  ),
  Stages: SshConnectStages,
};

const LOCAL_FORM: KindForm<Record<string, never>> = {
  label: 'This machine',
  pickable: false,
  testable: false,
  fromSettings: () => ({}),
  toSettings: () => ({ kind: 'local' }),
  check: () => ({}),
  Fields: () => null,
};

export const KIND_FORMS: { [K in Kind]: KindForm<KindFields[K]> } = {
  ssh: SSH_FORM,
  container: CONTAINER_FORM,
  ws: WS_FORM,
  command: COMMAND_FORM,
  exec: EXEC_FORM,
  local: LOCAL_FORM,
};

export const KINDS = Object.keys(KIND_FORMS) as Kind[];

export function kindFieldsFrom(settings: EnvironmentSettings | undefined): KindFields {
  return {
    ssh: SSH_FORM.fromSettings(settings),
    ws: WS_FORM.fromSettings(settings),
    command: COMMAND_FORM.fromSettings(settings),
    container: CONTAINER_FORM.fromSettings(settings),
    exec: EXEC_FORM.fromSettings(settings),
    local: LOCAL_FORM.fromSettings(settings),
  };
}

/** One kind's form bound to its fields: what the dialog calls without knowing which kind it is. */
export interface BoundKindForm {
  form: KindForm<unknown>;
  settings: (pin: string | null) => EnvironmentSettings | null;
  check: () => FieldErrors;
  checkSave: (existing: KindFieldsProps<unknown>['existing'], pin: string | null) => FieldErrors;
  token: () => string | undefined;
  pinnable: () => boolean;
  fields: (props: Omit<KindFieldsProps<unknown>, 'fields' | 'onChange'>) => ReactNode;
}

export function bindKindForm<K extends Kind>(
  kind: K,
  all: KindFields,
  update: (change: (all: KindFields) => KindFields) => void,
): BoundKindForm {
  const form: KindForm<KindFields[K]> = KIND_FORMS[kind];
  const fields = all[kind];
  const Fields = form.Fields;
  return {
    form: form as KindForm<unknown>,
    settings: (pin) => form.toSettings(fields, pin),
    check: () => form.check(fields),
    checkSave: (existing, pin) => form.checkSave?.(fields, existing, pin) ?? {},
    token: () => form.token?.(fields),
    pinnable: () => form.pinnable?.(fields) ?? false,
    fields: (props) => (
      <Fields
        {...props}
        fields={fields}
        onChange={(next) => update((current) => ({ ...current, [kind]: next }))}
      />
    ),
  };
}
