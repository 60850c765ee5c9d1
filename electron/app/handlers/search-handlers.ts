// search.* of the contract: Quick open's file listing and Find in files, both run on the host of the
// environment (search/), with what each host has learnt (its tools, its cached listings) kept per
// connected client, and each running search cancellable by its id.
import type { ExecServerClientApi } from '../../client/api';
import { AppError } from '../app-error';
import type { EnvironmentRegistry } from '../environments/environment-registry';
import { listWorkspaceFiles, WorkspaceFileCache } from '../search/file-listing';
import { HostTools } from '../search/host-tools';
import { searchText } from '../search/text-search';
import type { NamespaceHandlers } from './command-handlers';

export type SearchHandlers = NamespaceHandlers<'search'>;

interface HostState {
  tools: HostTools;
  files: WorkspaceFileCache;
}

export function searchHandlers(envs: EnvironmentRegistry): SearchHandlers {
  // Per client: an environment whose settings change gets a new client, and learns its host afresh.
  const hosts = new WeakMap<ExecServerClientApi, HostState>();
  const running = new Map<string, AbortController>();
  const hostOf = (client: ExecServerClientApi): HostState => {
    let state = hosts.get(client);
    if (!state) {
      state = { tools: new HostTools(), files: new WorkspaceFileCache() };
      hosts.set(client, state);
    }
    return state;
  };
  /** The root must be a folder: a missing working directory would look like a missing program. */
  const checkedRoot = async (client: ExecServerClientApi, root: string): Promise<void> => {
    const meta = await client.fs.getMetadata(root).catch(() => null);
    if (!meta?.isDirectory) throw new AppError('notFound', `${root} is not a folder on the host.`);
  };
  return {
    'search.files': async ({ envId, root, refresh }) => {
      const client = await envs.connectedClient(envId);
      await checkedRoot(client, root);
      const host = hostOf(client);
      return host.files.get(root, refresh, () => listWorkspaceFiles(client, host.tools, root));
    },
    'search.text': async ({ envId, root, searchId, ...query }) => {
      const client = await envs.connectedClient(envId);
      await checkedRoot(client, root);
      running.get(searchId)?.abort();
      const controller = new AbortController();
      running.set(searchId, controller);
      try {
        return await searchText(client, hostOf(client).tools, root, query, controller.signal);
      } finally {
        if (running.get(searchId) === controller) running.delete(searchId);
      }
    },
    'search.cancel': ({ searchId }) => {
      running.get(searchId)?.abort();
      return { ok: true };
    },
  };
}
