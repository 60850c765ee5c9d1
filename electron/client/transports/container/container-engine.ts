// The container engine's CLI (podman or docker: the same arguments), run on this machine or on an
// SSH host: the argv of an engine command, a container's state, the live list of containers and
// starting a stopped one. Everything Tether asks an engine goes through engineArgv.
import { execFile } from 'node:child_process';
import { CONTAINER_NAME } from '../../../../shared/environment-kinds/container-settings';
import { shQuote } from '../../../../shared/shell-quote';
import { errorMessage } from '../../../../shared/error-message';
import { ClientError } from '../../client-error';
import type { HostShell } from '../../remote-host/host-shell';

export type ContainerEngine = 'podman' | 'docker';

/** Where the engine runs: this machine, or over a shell to an SSH host (its master, or plain ssh). */
export interface EngineLocation {
  engine: ContainerEngine;
  /** The engine's CLI; default its name, found on the PATH of wherever it runs. */
  enginePath?: string;
  /** The SSH host's shell the engine runs through, or undefined for this machine. */
  via?: Pick<HostShell, 'commandArgv' | 'hostName'>;
}

/** How long an engine query (inspect, ps, start) may take. */
export const ENGINE_QUERY_TIMEOUT_MS = 30_000;
/** The live list's bound: a host with more containers than this shows the first ones. */
export const MAX_LISTED_CONTAINERS = 500;

/** argv that runs the engine with `args`, here or on the SSH host. */
export function engineArgv(location: EngineLocation, args: string[]): string[] {
  const program = location.enginePath ?? location.engine;
  if (!location.via) return [program, ...args];
  return location.via.commandArgv([program, ...args].map(shQuote).join(' '));
}

/** Where the engine runs, as messages say it: "podman" or "podman on me@box". */
export function engineName(location: EngineLocation): string {
  return location.via ? `${location.engine} on ${location.via.hostName}` : location.engine;
}

interface EngineRun {
  code: number;
  stdout: string;
  stderr: string;
}

function runEngine(location: EngineLocation, args: string[]): Promise<EngineRun> {
  const [program, ...rest] = engineArgv(location, args);
  return new Promise((resolve, reject) => {
    execFile(
      program!,
      rest,
      { timeout: ENGINE_QUERY_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code;
        if (error && typeof code !== 'number') {
          reject(
            new ClientError(
              'transport',
              `Could not run ${engineName(location)} (${program}): ${errorMessage(error)}`,
            ),
          );
        } else resolve({ code: typeof code === 'number' ? code : 0, stdout, stderr });
      },
    );
  });
}

/** The engines' words for a container that does not exist. */
const NO_SUCH_CONTAINER = /no such (container|object)|no container with name or id/i;

/**
 * The container's state as the engine says it (`running`, `exited`, `paused`, `created`, …), or
 * null if it does not exist. Throws a ClientError if the engine itself cannot be asked.
 */
export async function containerState(location: EngineLocation, container: string): Promise<string | null> {
  const run = await runEngine(location, ['container', 'inspect', '--format', '{{.State.Status}}', container]);
  if (run.code === 0) return run.stdout.trim();
  if (NO_SUCH_CONTAINER.test(run.stderr)) return null;
  throw new ClientError(
    'transport',
    `${engineName(location)} could not say how container ${container} is (exit ${run.code}): ${run.stderr.trim()}`,
  );
}

/** `error` as the container's state explains it: stopped or removed; else `error` itself. */
export async function explainByContainer(
  location: EngineLocation,
  container: string,
  error: ClientError,
): Promise<ClientError> {
  // A restarted container whose daemon is gone says so through the bridge: keep that.
  if (error.code === 'unknownSession' || error.code === 'cancelled' || error.code === 'closed') return error;
  let state: string | null;
  try {
    state = await containerState(location, container);
  } catch {
    return error;
  }
  if (state === null) {
    return new ClientError(
      'containerGone',
      `The container ${container} no longer exists on ${engineName(location)} (it was removed); ` +
        'its processes and what Tether installed in it went with it.',
    );
  }
  if (state !== 'running') {
    return new ClientError(
      'containerStopped',
      `The container ${container} is ${state} on ${engineName(location)}. Start it, then reconnect ` +
        '(its processes from before the stop are gone).',
    );
  }
  return error;
}

/** Starts a stopped container. */
export async function startContainer(location: EngineLocation, container: string): Promise<void> {
  const run = await runEngine(location, ['start', container]);
  if (run.code !== 0) {
    throw new ClientError(
      NO_SUCH_CONTAINER.test(run.stderr) ? 'containerGone' : 'transport',
      `${engineName(location)} could not start ${container}: ${run.stderr.trim() || `exit ${run.code}`}`,
    );
  }
}

/** One container of the live list. */
export interface ContainerListing {
  name: string;
  id: string;
  image: string;
  /** The engine's words: "Up 3 minutes", "Exited (0) 2 hours ago". */
  status: string;
  running: boolean;
  /** Epoch ms of its creation, or null if the engine did not say. */
  createdAt: number | null;
}

/** The containers the engine knows (running or not), newest first. */
export async function listContainers(location: EngineLocation): Promise<ContainerListing[]> {
  const run = await runEngine(location, ['ps', '--all', '--no-trunc', '--format', '{{json .}}']);
  if (run.code !== 0) {
    throw new ClientError(
      'transport',
      `${engineName(location)} could not list containers (exit ${run.code}): ${run.stderr.trim()}`,
    );
  }
  return parseContainerList(run.stdout).slice(0, MAX_LISTED_CONTAINERS);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * `ps --format '{{json .}}'` of either engine: podman prints one JSON array (Names an array,
 * Created in seconds, State a word), docker one object per line (Names a string, CreatedAt a date).
 */
export function parseContainerList(stdout: string): ContainerListing[] {
  const trimmed = stdout.trim();
  if (!trimmed) return [];
  let rows: unknown[];
  try {
    rows = trimmed.startsWith('[')
      ? (JSON.parse(trimmed) as unknown[])
      : trimmed.split('\n').map((line) => JSON.parse(line) as unknown);
  } catch {
    throw new ClientError('protocol', 'The container engine printed a list Tether cannot read.');
  }
  const listed: ContainerListing[] = [];
  for (const row of rows) {
    if (typeof row !== 'object' || row === null) continue;
    const r = row as Record<string, unknown>;
    const names = Array.isArray(r.Names) ? r.Names.map(text) : text(r.Names).split(',');
    // A name Tether could not store as a setting is not offered.
    const name = names.find((n) => CONTAINER_NAME.test(n));
    if (!name) continue;
    const state = text(r.State).toLowerCase();
    const created =
      typeof r.Created === 'number'
        ? r.Created * 1000
        : Date.parse(text(r.CreatedAt).replace(/ [A-Z]+$/, ''));
    listed.push({
      name,
      id: text(r.Id ?? r.ID),
      image: text(r.Image),
      status: text(r.Status) || state,
      running: state === 'running' || /^up\b/i.test(text(r.Status)),
      createdAt: Number.isFinite(created) ? created : null,
    });
  }
  return listed.sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0));
}
