// An Exec command environment in the dialog: a command prefix that runs argv on the target with
// stdin/stdout (`kubectl exec -i POD --`), through which Tether installs and starts its server.
import { SshConnectStages } from '../../ssh/ssh-connect-stages';
import { Field } from '../../ui/field';
import type { KindFieldsProps, KindForm } from './kind-form';

export interface ExecForm {
  prefix: string;
  remoteNodePath: string;
}

function problems(fields: ExecForm): Partial<Record<keyof ExecForm, string>> {
  const errors: Partial<Record<keyof ExecForm, string>> = {};
  if (!fields.prefix.trim()) errors.prefix = 'Enter the command prefix, e.g. kubectl exec -i POD --.';
  const node = fields.remoteNodePath.trim();
  if (node && !node.startsWith('/')) errors.remoteNodePath = 'Give the full path of node on the target.';
  return errors;
}

export const EXEC_FORM: KindForm<ExecForm> = {
  label: 'Exec command (kubectl, lxc, wsl…)',
  pickable: true,
  testable: true,
  fromSettings: (settings) =>
    settings?.kind === 'exec'
      ? { prefix: settings.prefix, remoteNodePath: settings.remoteNodePath ?? '' }
      : { prefix: '', remoteNodePath: '' },
  toSettings: (fields) => {
    if (Object.keys(problems(fields)).length > 0) return null;
    const node = fields.remoteNodePath.trim();
    return { kind: 'exec', prefix: fields.prefix.trim(), ...(node ? { remoteNodePath: node } : {}) };
  },
  check: problems,
  Fields: ExecFields,
  Stages: SshConnectStages,
};

function ExecFields({ fields, onChange, errors }: KindFieldsProps<ExecForm>) {
  const set = (patch: Partial<ExecForm>) => onChange({ ...fields, ...patch });
  return (
    <>
      <Field id="env-exec-prefix" label="Command prefix" error={errors.prefix}>
        <input
          id="env-exec-prefix"
          className="mono"
          placeholder="kubectl exec -i my-pod -c app --"
          value={fields.prefix}
          onChange={(e) => set({ prefix: e.target.value })}
          aria-invalid={!!errors.prefix}
        />
      </Field>
      <span className="field-note">Tether runs PREFIX /bin/sh -c … with its stdin and stdout.</span>
      <Field id="env-exec-node" label="Node on the target" error={errors.remoteNodePath}>
        <input
          id="env-exec-node"
          className="mono"
          placeholder="found or installed by Tether"
          value={fields.remoteNodePath}
          onChange={(e) => set({ remoteNodePath: e.target.value })}
          aria-invalid={!!errors.remoteNodePath}
        />
      </Field>
    </>
  );
}
