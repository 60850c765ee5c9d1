// The Container part of the environment dialog: the engine (Podman or Docker, its CLI path if not on
// the PATH), where it runs (this machine or an SSH environment's host), and the container, picked
// from the engine's live list (name, image, status, age) or typed.
import { useEffect, useState } from 'react';
import {
  CONTAINER_ENGINES,
  CONTAINER_NAME,
  type ContainerEngine,
  type ContainerView,
  type EnvironmentSettings,
} from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { useEnvironments } from '../environments/environments-store';
import type { KindFieldsProps, KindForm } from '../environments/kinds/kind-form';
import { SshConnectStages } from '../ssh/ssh-connect-stages';
import { Field } from '../ui/field';
import { listContainers } from './container-actions';

export interface ContainerForm {
  engine: ContainerEngine;
  enginePath: string;
  /** The SSH environment whose host runs the engine, or '' for this machine. */
  sshEnvId: string;
  container: string;
  remoteNodePath: string;
}

const EMPTY: ContainerForm = {
  engine: 'podman',
  enginePath: '',
  sshEnvId: '',
  container: '',
  remoteNodePath: '',
};

/** The SSH environments whose host settings match `host`, first one wins. */
function sshEnvFor(host: NonNullable<Extract<EnvironmentSettings, { kind: 'container' }>['host']>): string {
  const { byId, order } = useEnvironments.getState();
  return (
    order.find((id) => {
      const s = byId[id]?.settings;
      return s?.kind === 'ssh' && s.destination === host.destination && s.port === host.port;
    }) ?? ''
  );
}

function problems(fields: ContainerForm): Partial<Record<keyof ContainerForm, string>> {
  const errors: Partial<Record<keyof ContainerForm, string>> = {};
  const name = fields.container.trim();
  if (!name) errors.container = 'Pick a container from the list or type its name.';
  else if (!CONTAINER_NAME.test(name))
    errors.container = 'A container name has letters, digits and _.- only.';
  const node = fields.remoteNodePath.trim();
  if (node && !node.startsWith('/')) errors.remoteNodePath = 'Give the full path of node in the container.';
  if (fields.sshEnvId && !useEnvironments.getState().byId[fields.sshEnvId]) {
    errors.sshEnvId = 'That SSH environment is gone; pick another.';
  }
  return errors;
}

export const CONTAINER_FORM: KindForm<ContainerForm> = {
  label: 'Container (Docker or Podman)',
  pickable: true,
  testable: true,
  fromSettings: (settings) =>
    settings?.kind === 'container'
      ? {
          engine: settings.engine,
          enginePath: settings.enginePath ?? '',
          sshEnvId: settings.host ? sshEnvFor(settings.host) : '',
          container: settings.container,
          remoteNodePath: settings.remoteNodePath ?? '',
        }
      : EMPTY,
  toSettings: (fields) => {
    if (Object.keys(problems(fields)).length > 0) return null;
    const ssh = fields.sshEnvId ? useEnvironments.getState().byId[fields.sshEnvId]?.settings : undefined;
    const enginePath = fields.enginePath.trim();
    const node = fields.remoteNodePath.trim();
    return {
      kind: 'container',
      engine: fields.engine,
      container: fields.container.trim(),
      ...(enginePath ? { enginePath } : {}),
      ...(ssh?.kind === 'ssh'
        ? {
            host: {
              destination: ssh.destination,
              ...(ssh.port !== undefined ? { port: ssh.port } : {}),
              ...(ssh.sshOptions ? { sshOptions: ssh.sshOptions } : {}),
            },
          }
        : {}),
      ...(node ? { remoteNodePath: node } : {}),
    };
  },
  check: problems,
  Fields: ContainerFields,
  Stages: SshConnectStages,
};

/** "5 min", "3 h", "2 d": how long ago `at` was. */
export function age(at: number | null, now = Date.now()): string {
  if (at === null) return '';
  const minutes = Math.max(0, Math.round((now - at) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} d`;
}

function ContainerFields({ fields, onChange, errors, suggestName }: KindFieldsProps<ContainerForm>) {
  const set = (patch: Partial<ContainerForm>) => onChange({ ...fields, ...patch });
  // Two plain selections: a selector that built a new array each time would never settle.
  const byId = useEnvironments((s) => s.byId);
  const order = useEnvironments((s) => s.order);
  const sshEnvs = order.flatMap((id) => (byId[id]?.settings.kind === 'ssh' ? [byId[id]] : []));
  const list = useContainerList(fields);
  return (
    <>
      <Field id="env-container-engine" label="Engine">
        <select
          id="env-container-engine"
          value={fields.engine}
          onChange={(e) => set({ engine: e.target.value as ContainerEngine })}
        >
          {CONTAINER_ENGINES.map((engine) => (
            <option key={engine} value={engine}>
              {engine === 'podman' ? 'Podman' : 'Docker'}
            </option>
          ))}
        </select>
      </Field>
      <Field id="env-container-where" label="Containers on" error={errors.sshEnvId}>
        <select
          id="env-container-where"
          value={fields.sshEnvId}
          onChange={(e) => set({ sshEnvId: e.target.value })}
        >
          <option value="">This machine</option>
          {sshEnvs.map((env) => (
            <option key={env.id} value={env.id}>
              {env.name} (SSH)
            </option>
          ))}
        </select>
      </Field>
      <span id="env-container-list-label">Containers</span>
      <div role="listbox" aria-labelledby="env-container-list-label" className="container-list">
        {list.error && <span className="field-error">{list.error}</span>}
        {!list.error && !list.containers && <span className="field-note">Asking {fields.engine}…</span>}
        {list.containers?.length === 0 && (
          <span className="field-note">No containers; type a name below.</span>
        )}
        {list.containers?.map((c) => (
          <div
            key={c.id || c.name}
            role="option"
            tabIndex={0}
            aria-selected={c.name === fields.container.trim()}
            aria-label={`${c.name} ${c.image} ${c.status}`}
            className="container-option"
            onClick={() => {
              set({ container: c.name });
              suggestName(c.name);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                set({ container: c.name });
                suggestName(c.name);
              }
            }}
          >
            <span className="mono">{c.name}</span> <span>{c.image}</span> <span>{c.status}</span>{' '}
            <span className="container-age">{age(c.createdAt)}</span>
          </div>
        ))}
      </div>
      <button type="button" className="container-refresh" onClick={list.reload}>
        Refresh list
      </button>
      <Field id="env-container-name" label="Container" error={errors.container}>
        <input
          id="env-container-name"
          className="mono"
          placeholder="name or id"
          value={fields.container}
          onChange={(e) => set({ container: e.target.value })}
          aria-invalid={!!errors.container}
        />
      </Field>
      <Field id="env-container-engine-path" label="Engine CLI">
        <input
          id="env-container-engine-path"
          className="mono"
          placeholder={`${fields.engine} on the PATH`}
          value={fields.enginePath}
          onChange={(e) => set({ enginePath: e.target.value })}
        />
      </Field>
      <Field id="env-container-node" label="Node in the container" error={errors.remoteNodePath}>
        <input
          id="env-container-node"
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

/** The engine's live list for the fields' engine and host, asked again on Refresh. */
function useContainerList(fields: ContainerForm): {
  containers: ContainerView[] | null;
  error: string | null;
  reload: () => void;
} {
  const [state, setState] = useState<{ containers: ContainerView[] | null; error: string | null }>({
    containers: null,
    error: null,
  });
  const [generation, setGeneration] = useState(0);
  const enginePath = fields.enginePath.trim();
  useEffect(() => {
    let live = true;
    setState({ containers: null, error: null });
    listContainers({
      engine: fields.engine,
      ...(enginePath ? { enginePath } : {}),
      ...(fields.sshEnvId ? { sshEnvId: fields.sshEnvId } : {}),
    }).then(
      (containers) => live && setState({ containers, error: null }),
      (error: unknown) =>
        live && setState({ containers: [], error: `Could not list containers: ${errorMessage(error)}` }),
    );
    return () => {
      live = false;
    };
  }, [fields.engine, enginePath, fields.sshEnvId, generation]);
  return { ...state, reload: () => setGeneration((g) => g + 1) };
}
