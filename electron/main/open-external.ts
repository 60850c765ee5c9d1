// The Electron host's link opener: Electron's shell.openExternal, which hands the URL to the OS's
// URL handler without a shell. The http(s) rule is checked again here, the last step before the OS,
// so no caller can reach a file: or custom-protocol handler through it.
import { shell } from 'electron';
import { requireWebLink } from '../../shared/web-link';

export async function openExternalLink(url: string): Promise<void> {
  await shell.openExternal(requireWebLink(url).href);
}
