// Opens an http(s) URL in the system browser, detached, without a shell on any platform: the URL is
// one argv entry of a program that opens URLs, so `&`, `|` or `^` in it can never run a command.
// Failure is reported to the caller, who prints a hint instead. The one other thing it opens is a
// local page `tether web` wrote itself (the login redirect file), by path.
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { requireWebLink } from '../../shared/web-link';

export interface BrowserOpenCommand {
  command: string;
  args: string[];
}

/**
 * The program and argv that open `url` on `platform`. On Windows this is `rundll32
 * url.dll,FileProtocolHandler`, never `cmd /c start`, whose command line would treat `&` as a
 * separator. The URL passed on is the normalised href: it has no spaces or double quotes, so
 * Windows' argv quoting leaves it exactly as it is.
 */
export function browserOpenCommand(url: string, platform: NodeJS.Platform): BrowserOpenCommand {
  return openerOf(requireWebLink(url).href, platform);
}

/** The same for a local HTML file of our own: its file:// URL, percent-encoded, so argv-safe too. */
export function fileOpenCommand(filePath: string, platform: NodeJS.Platform): BrowserOpenCommand {
  return openerOf(pathToFileURL(filePath).href, platform);
}

function openerOf(href: string, platform: NodeJS.Platform): BrowserOpenCommand {
  if (platform === 'darwin') return { command: 'open', args: [href] };
  if (platform === 'win32') return { command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', href] };
  return { command: 'xdg-open', args: [href] };
}

export function openInBrowser(url: string): Promise<void> {
  let opener: BrowserOpenCommand;
  try {
    opener = browserOpenCommand(url, process.platform);
  } catch (error) {
    return Promise.reject(error as Error);
  }
  return launch(opener);
}

/** Opens a local HTML file that Tether wrote (never a path taken from a remote program). */
export function openFileInBrowser(filePath: string): Promise<void> {
  return launch(fileOpenCommand(filePath, process.platform));
}

function launch(opener: BrowserOpenCommand): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(opener.command, opener.args, {
      stdio: 'ignore',
      detached: true,
      shell: false,
      windowsHide: true,
    });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
