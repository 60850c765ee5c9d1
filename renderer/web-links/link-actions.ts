// Opening a link a program printed in a terminal. Any program's output can carry a link (a remote
// one especially), so a link to a host the user has not trusted opens only after the user agrees in
// the open-link dialog, and "always allow" adds its host to the trustedLinkHosts setting. Only
// http(s) links are ever opened; how is up to the host (setLinkOpener).
import { requireWebLink, webLinkOrNull } from '../../shared/web-link';
import { invoke } from '../ipc/ipc-client';
import type { LinkOpener } from '../ipc/link-opener';
import { useSettings } from '../settings/settings-store';
import { useUi } from '../app/ui-store';

let opener: LinkOpener = async (url) => {
  await invoke('shell.openExternal', { url });
};

/** Installs the host's way of opening links (the system browser, or a new tab in web mode). */
export function setLinkOpener(open: LinkOpener): void {
  opener = open;
}

/**
 * A link clicked in a terminal of environment `envId`: opened at once when its host is trusted,
 * otherwise shown in the open-link dialog (which also explains a link Tether refuses to open).
 */
export function requestOpenLink(url: string, envId: string | null): void {
  const link = webLinkOrNull(url);
  if (!link || !isTrustedHost(link.host)) {
    useUi.getState().openDialog({ kind: 'openLink', url, envId });
    return;
  }
  openLink(link.href).catch(() => useUi.getState().openDialog({ kind: 'openLink', url, envId }));
}

export function isTrustedHost(host: string): boolean {
  return useSettings.getState().settings.trustedLinkHosts.includes(host);
}

/** Opens an http(s) link now (the user agreed, or its host is trusted). */
export async function openLink(url: string): Promise<void> {
  await opener(requireWebLink(url).href);
}

/** "Always allow this host": remembers the link's host in the settings, then opens the link. */
export async function trustHostAndOpen(url: string): Promise<void> {
  const link = requireWebLink(url);
  const hosts = useSettings.getState().settings.trustedLinkHosts;
  if (!hosts.includes(link.host)) {
    const settings = await invoke('settings.update', { trustedLinkHosts: [...hosts, link.host] });
    useSettings.getState().set(settings);
  }
  await openLink(link.href);
}
