// The SSH part of the environment dialog: a picker of the hosts in ~/.ssh/config (each with what
// ssh resolves it to) with "Add new SSH host…" to write one there, or a typed `user@host[:port]`,
// extra `Key=Value` options, the host's node and the session lifetime. The fields are the dialog's state; problems come from ssh-form.ts.
import { useEffect, useState } from 'react';
import type { SshHostView } from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { listSshHosts } from './ssh-actions';
import { SshHostEntryForm } from './ssh-host-entry-form';
import { Field } from '../ui/field';
import type { SshFormErrors, SshFormFields } from './ssh-form';

export function SshFields({
  fields,
  errors,
  onChange,
  onPick,
}: {
  fields: SshFormFields;
  errors: SshFormErrors;
  onChange: (fields: SshFormFields) => void;
  /** A host was picked from the config or added to it (the dialog may take its alias as the name). */
  onPick: (alias: string) => void;
}) {
  const hosts = useSshHosts();
  const set = (patch: Partial<SshFormFields>) => onChange({ ...fields, ...patch });
  const picked = hosts.list?.find((h) => h.alias === fields.target.trim()) ?? null;
  return (
    <>
      <label htmlFor="env-ssh-host">From ~/.ssh/config</label>
      {hosts.list && hosts.list.length > 0 ? (
        <select
          id="env-ssh-host"
          value={picked?.alias ?? ''}
          onChange={(e) => {
            const host = hosts.list?.find((h) => h.alias === e.target.value);
            if (!host) return;
            set({ target: host.alias });
            onPick(host.alias);
          }}
        >
          <option value="">Choose a host…</option>
          {hosts.list.map((host) => (
            <option key={host.alias} value={host.alias}>
              {host.alias} — {resolvedText(host)}
            </option>
          ))}
        </select>
      ) : (
        <span className="field-note">
          {hosts.error ??
            (hosts.list ? 'No hosts in ~/.ssh/config; type one below.' : 'Reading ~/.ssh/config…')}
        </span>
      )}
      <SshHostEntryForm
        onAdded={(entry) => {
          hosts.reload();
          set({ target: entry.alias });
          onPick(entry.alias);
        }}
      />
      <Field id="env-ssh-target" label="Host" error={errors.target}>
        <input
          id="env-ssh-target"
          className="mono"
          placeholder="user@host:port or a config alias"
          value={fields.target}
          onChange={(e) => set({ target: e.target.value })}
          aria-invalid={!!errors.target}
          aria-describedby="env-ssh-resolved"
        />
      </Field>
      {picked && (
        <span id="env-ssh-resolved" className="field-note">
          {picked.problem
            ? `ssh cannot resolve it: ${picked.problem}`
            : `ssh connects to ${resolvedText(picked)}`}
        </span>
      )}
      <Field id="env-ssh-options" label="Extra ssh options" error={errors.options}>
        <textarea
          id="env-ssh-options"
          placeholder={'one Key=Value per line, e.g.\nServerAliveInterval=15'}
          value={fields.options}
          onChange={(e) => set({ options: e.target.value })}
          aria-invalid={!!errors.options}
        />
      </Field>
      <Field id="env-ssh-node" label="Node on the host" error={errors.remoteNodePath}>
        <input
          id="env-ssh-node"
          className="mono"
          placeholder="found or installed by Tether"
          value={fields.remoteNodePath}
          onChange={(e) => set({ remoteNodePath: e.target.value })}
          aria-invalid={!!errors.remoteNodePath}
        />
      </Field>
      <Field id="env-ssh-ttl" label="Keep sessions (hours)" error={errors.sessionHours}>
        <input
          id="env-ssh-ttl"
          inputMode="decimal"
          placeholder="the host's default"
          value={fields.sessionHours}
          onChange={(e) => set({ sessionHours: e.target.value })}
          aria-invalid={!!errors.sessionHours}
        />
      </Field>
    </>
  );
}

/** "alice@10.0.0.5:2222 via bastion" — what `ssh -G` resolved. */
function resolvedText(host: SshHostView): string {
  if (host.problem) return 'cannot be resolved';
  const user = host.user ? `${host.user}@` : '';
  const port = host.port !== null && host.port !== 22 ? `:${host.port}` : '';
  const via = host.proxyJump ? ` via ${host.proxyJump}` : host.proxyCommand ? ' via a proxy command' : '';
  return `${user}${host.hostname ?? host.alias}${port}${via}`;
}

function useSshHosts(): { list: SshHostView[] | null; error: string | null; reload: () => void } {
  const [state, setState] = useState<{ list: SshHostView[] | null; error: string | null }>({
    list: null,
    error: null,
  });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let live = true;
    listSshHosts().then(
      (list) => live && setState({ list, error: null }),
      (error: unknown) =>
        live && setState({ list: [], error: `Could not read ~/.ssh/config: ${errorMessage(error)}` }),
    );
    return () => {
      live = false;
    };
  }, [generation]);
  return { ...state, reload: () => setGeneration((g) => g + 1) };
}
