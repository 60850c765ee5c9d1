// The Electron host's link opener: Electron's shell.openExternal, which hands the URL to the OS's
// URL handler without a shell. The http(s) rule is checked again here, the last step before the OS,
// so no caller can reach a file: or custom-protocol handler through it.
import { shell } from 'electron';
import { webLinksOnly } from '../../shared/web-link';

export const openExternalLink = webLinksOnly((url) => shell.openExternal(url));
