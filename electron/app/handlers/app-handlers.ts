// The app-wide commands of the contract: settings.*, app.* (notices, unsaved edits) and
// shell.openExternal.
import type { NamespaceHandlers } from './command-handlers';
import { AppError } from '../app-error';
import { errorMessage } from '../../../shared/error-message';
import { requireWebLink } from '../../../shared/web-link';
import type { AppConfig } from '../persistence/app-config';
import type { HostServices } from '../host-services';
import type { NoticeBoard } from '../notice-board';
import type { RendererFanout } from '../processes/renderer-fanout';
import type { SecretProtection } from '../persistence/secret-store';
import type { UnsavedEdits } from '../files/unsaved-edits';

export type AppHandlers = NamespaceHandlers<'settings' | 'app' | 'shell'>;

export interface AppHandlerDeps {
  config: AppConfig;
  notices: NoticeBoard;
  renderers: RendererFanout;
  host: HostServices;
  tokenProtection: SecretProtection;
  unsavedEdits: UnsavedEdits;
}

export function appHandlers({
  config,
  notices,
  renderers,
  host,
  tokenProtection,
  unsavedEdits,
}: AppHandlerDeps): AppHandlers {
  let startupClaimed = false;
  return {
    'settings.get': () => config.settings,
    'settings.update': async (patch) => {
      const settings = await config.updateSettings(patch);
      renderers.broadcast('settings.changed', { ...settings });
      return settings;
    },

    'app.notices': () => notices.list(),
    'app.dismissNotice': ({ id }) => {
      notices.dismiss(id);
      return { ok: true };
    },
    'app.claimStartup': () => {
      const first = !startupClaimed;
      startupClaimed = true;
      return { first };
    },
    'app.tokenStorage': () => ({
      encrypted: tokenProtection.encrypted,
      description: tokenProtection.description,
    }),
    'app.reportUnsavedEdits': ({ files }, feed) => {
      unsavedEdits.report(feed.id, files);
      return { ok: true };
    },

    'shell.openExternal': async ({ url }) => {
      let link: URL;
      try {
        link = requireWebLink(url);
      } catch (error) {
        throw new AppError('invalidInput', errorMessage(error));
      }
      // The normalised href, so every host receives the same form the check was made on.
      await host.openExternal(link.href);
      return { ok: true };
    },
  };
}
