// The SSH part of the environment form as text fields, and the settings they stand for: parsed
// and checked with the shared destination rules, each problem worded for the field it belongs to.
import { SSH_SESSION_TTL_MAX_MS, SSH_SESSION_TTL_MIN_MS, type EnvironmentSettings } from '../../shared/ipc';
import { formatSshTarget, parseSshOptions, parseSshTarget } from '../../shared/ssh-target';

type SshSettings = Extract<EnvironmentSettings, { kind: 'ssh' }>;

export interface SshFormFields {
  /** A config alias or `user@host[:port]`. */
  target: string;
  /** Extra options, one `Key=Value` per line. */
  options: string;
  remoteNodePath: string;
  /** Session lifetime in hours; empty for the host's default. */
  sessionHours: string;
}

export type SshFormErrors = Partial<Record<keyof SshFormFields, string>>;

const HOUR_MS = 3_600_000;

export const EMPTY_SSH_FORM: SshFormFields = {
  target: '',
  options: '',
  remoteNodePath: '',
  sessionHours: '',
};

export function sshFormFromSettings(settings: EnvironmentSettings | undefined): SshFormFields {
  if (settings?.kind !== 'ssh') return EMPTY_SSH_FORM;
  return {
    target: formatSshTarget(settings),
    options: (settings.sshOptions ?? []).join('\n'),
    remoteNodePath: settings.remoteNodePath ?? '',
    sessionHours: settings.sessionTtlMs === undefined ? '' : String(settings.sessionTtlMs / HOUR_MS),
  };
}

export function sshSettingsFromForm(
  fields: SshFormFields,
): { ok: true; settings: SshSettings } | { ok: false; errors: SshFormErrors } {
  const errors: SshFormErrors = {};
  const target = parseSshTarget(fields.target);
  if (!target.ok) errors.target = target.message;
  const options = parseSshOptions(fields.options);
  if (!options.ok) errors.options = options.message;
  const nodePath = fields.remoteNodePath.trim();
  if (nodePath && !nodePath.startsWith('/')) {
    errors.remoteNodePath = 'Give the full path of node on the host, like /opt/node/bin/node.';
  }
  const hours = fields.sessionHours.trim();
  const ttlMs = hours ? Math.round(Number(hours) * HOUR_MS) : undefined;
  if (ttlMs !== undefined && !(ttlMs >= SSH_SESSION_TTL_MIN_MS && ttlMs <= SSH_SESSION_TTL_MAX_MS)) {
    errors.sessionHours = `Give a number of hours up to ${SSH_SESSION_TTL_MAX_MS / HOUR_MS} (at least ${SSH_SESSION_TTL_MIN_MS / 60_000} minute), or leave it empty for the host's default.`;
  }
  if (!target.ok || !options.ok || Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    settings: {
      kind: 'ssh',
      ...target.value,
      ...(options.value.length > 0 ? { sshOptions: options.value } : {}),
      ...(nodePath ? { remoteNodePath: nodePath } : {}),
      ...(ttlMs !== undefined ? { sessionTtlMs: ttlMs } : {}),
    },
  };
}
