// files.* of the contract: the home folder, listings, stat and previews (file-service.ts), and the
// simple mutations, each on the connected file system of its environment; a rename never replaces
// an existing name unless asked to (existing-target.ts).
import { AppError } from '../app-error';
import type { NamespaceHandlers } from './command-handlers';
import type { EnvironmentRegistry } from '../environments/environment-registry';
import { resolveTarget } from '../files/existing-target';
import { copyEntry, createFile, duplicateEntry, isWithin } from '../files/file-operations';
import { homeOf, joinPath, listDirectory, mapLimited, previewFile, statPath } from '../files/file-service';
import { LIST_METADATA_CONCURRENCY } from '../limits';

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
    'files.rename': async ({ envId, from, to, ifExists }) => {
      const fs = await envs.connectedFs(envId);
      if (from === to) return { ok: true, path: to };
      if (isWithin(to, from))
        throw new AppError('invalidInput', `${from} cannot be moved into itself; choose another folder.`);
      const target = await resolveTarget(fs, to, ifExists);
      await fs.rename(from, target.path, { overwrite: target.overwrite });
      return { ok: true, path: target.path };
    },
    'files.existing': async ({ envId, dir, names }) => {
      const fs = await envs.connectedFs(envId);
      const taken = await mapLimited(names, LIST_METADATA_CONCURRENCY, (name) =>
        fs.exists(joinPath(dir, name)),
      );
      return { names: names.filter((_, i) => taken[i]) };
    },
    'files.delete': async ({ envId, path }) => {
      if (path === '/') throw new AppError('invalidInput', 'Refusing to delete the root folder.');
      await (await envs.connectedFs(envId)).remove(path, { recursive: true, force: false });
      return { ok: true };
    },
    'files.createFile': async ({ envId, path }) => {
      await createFile(await envs.connectedFs(envId), path);
      return { ok: true };
    },
    'files.copy': async ({ envId, from, to, ifExists }) => ({
      ok: true,
      path: await copyEntry(await envs.connectedFs(envId), from, to, ifExists),
    }),
    'files.duplicate': async ({ envId, path }) => ({
      ok: true,
      path: await duplicateEntry(await envs.connectedFs(envId), path),
    }),
  };
}
