// preview.* of the contract: the desktop app's views of forwarded pages, owned by the host
// (electron/main/preview-views.ts). A host without them (web mode) answers every command with
// `unsupported`, so a renderer that asks anyway gets a clear reason.
import { AppError } from '../app-error';
import type { PreviewHost } from '../host-services';
import type { NamespaceHandlers } from './command-handlers';

export type PreviewHandlers = NamespaceHandlers<'preview'>;

export function previewHandlers(previews: PreviewHost | undefined): PreviewHandlers {
  const host = (): PreviewHost => {
    if (!previews)
      throw new AppError(
        'unsupported',
        'Previews in a pane need the desktop app; in a browser the page opens in a tab of its own.',
      );
    return previews;
  };
  return {
    'preview.open': ({ id, envId, port }) => host().open(id, envId, port),
    'preview.place': ({ id, bounds }) => {
      host().place(id, bounds);
      return { ok: true };
    },
    'preview.navigate': ({ id, action }) => {
      host().navigate(id, action);
      return { ok: true };
    },
    'preview.retain': ({ ids }) => {
      // Nothing to close where there are no views: a layout change in web mode is not an error.
      previews?.retain(new Set(ids));
      return { ok: true };
    },
  };
}
