// A visible note that an environment's link is plain ws:// over a network: anyone on the path can
// read the traffic (token included) and alter it. Loopback links are fine and get no note.
import { isUnencryptedRemoteUrl } from '../../shared/link-encryption';
import type { EnvironmentSettings } from '../../shared/ipc';

export const UNENCRYPTED_LINK_TEXT =
  'Unencrypted link: ws:// to another machine sends everything, the token included, in the clear. ' +
  'Use wss:// (exec-server --tls-cert/--tls-key) or reach the server over SSH.';

/** Whether these settings describe a ws:// link to a non-loopback host. */
export function isUnencryptedLink(settings: EnvironmentSettings): boolean {
  return settings.kind === 'ws' && isUnencryptedRemoteUrl(settings.url);
}

export function UnencryptedNote({ settings }: { settings: EnvironmentSettings }) {
  if (!isUnencryptedLink(settings)) return null;
  return (
    <p role="note" className="note-warning">
      {UNENCRYPTED_LINK_TEXT}
    </p>
  );
}
