// files.* of the contract: the home folder, listings, stat and previews (file-service.ts), and the
// simple mutations, each on the connected file system of its environment.
import { AppError } from './app-error';
import type { NamespaceHandlers } from './command-handlers';
import type { EnvironmentRegistry } from './environment-registry';
import { homeOf, listDirectory, previewFile, statPath } from './file-service';

export type FileHandlers = NamespaceHandlers<'files'>;

export function fileHandlers(envs: EnvironmentRegistry): FileHandlers {
  return {
    'files.home': async ({ envId }) => homeOf(await envs.connectedClient(envId)),
    'files.list': async ({ envId, path, showHidden }) =>
      listDirectory(await envs.connectedFs(envId), path, showHidden),
    'files.stat': async ({ envId, path }) => statPath(await envs.connectedFs(envId), path),
    'files.preview': async ({ envId, path }) => previewFile(await envs.connectedFs(envId), path),
    'files.mkdir': async ({ envId, path }) => {
      await (await envs.connectedFs(envId)).createDirectory(path, { recursive: true });
      return { ok: true };
    },
    'files.rename': async ({ envId, from, to }) => {
      await (await envs.connectedFs(envId)).rename(from, to);
      return { ok: true };
    },
    'files.delete': async ({ envId, path }) => {
      if (path === '/') throw new AppError('invalidInput', 'Refusing to delete the root folder.');
      await (await envs.connectedFs(envId)).remove(path, { recursive: true, force: false });
      return { ok: true };
    },
  };
}
