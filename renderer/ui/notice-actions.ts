// What the user can do with the AppService's notices: dismiss one, here and for good.
import { invoke } from '../ipc/ipc-client';
import { useNotices } from './notices-store';

/** Hides the notice at once; the AppService forgets it too (best effort: it is gone from view anyway). */
export function dismissNotice(id: string): void {
  useNotices.getState().remove(id);
  void invoke('app.dismissNotice', { id }).catch(() => undefined);
}
