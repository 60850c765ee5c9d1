// Opens an http(s) URL in the system browser, detached, without a shell on any platform: the URL is
// one argv entry of a program that opens URLs, so `&`, `|` or `^` in it can never run a command.
// Failure is reported to the caller, who prints a hint instead.
import { spawn } from 'node:child_process';
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
  const href = requireWebLink(url).href;
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
