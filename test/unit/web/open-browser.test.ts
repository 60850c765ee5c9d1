// The web host's browser opener: no shell on any platform, the URL handed on as one argv entry
// whatever it contains, and nothing but http(s) opened. The last case spawns the real opener, with
// a recording stand-in for the platform's URL-opening program first on PATH.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserOpenCommand, fileOpenCommand, openInBrowser } from '../../../electron/web/open-browser';
import { UnsafeLinkError } from '../../../shared/web-link';

const PLATFORMS: NodeJS.Platform[] = ['win32', 'darwin', 'linux', 'freebsd'];
const SHELLS = new Set(['cmd', 'cmd.exe', 'powershell', 'powershell.exe', 'pwsh', 'sh', 'bash', 'zsh']);

/** URLs that would run something if a shell (cmd's `&`, `|`, `^`, quotes) saw them. */
const HOSTILE_URLS = [
  'https://x.io/&calc',
  'https://x.io/a|calc',
  'https://x.io/a^&calc',
  'https://x.io/"&calc&"',
  "https://x.io/'&calc",
  'http://x.io/?a=1&b=2|calc^"x"',
];

const REFUSED_URLS = [
  'file:///etc/passwd',
  'javascript:alert(1)',
  'vscode://file/etc/passwd',
  'ms-settings:display',
  'data:text/html,<script>alert(1)</script>',
  'ftp://x.io/file',
  'not a url',
];

describe('fileOpenCommand (the login redirect file tether web wrote)', () => {
  it.each(PLATFORMS)(
    'runs no shell on %s and passes the file URL, percent-encoded, as one argument',
    (platform) => {
      const { command, args } = fileOpenCommand('/home/a b/data&dir/open-x/login "1".html', platform);
      expect(SHELLS.has(path.basename(command).toLowerCase())).toBe(false);
      const [href] = args.filter((arg) => arg.startsWith('file:'));
      expect(href).toBe('file:///home/a%20b/data&dir/open-x/login%20%221%22.html');
      expect(href).not.toMatch(/[ "]/);
    },
  );
});

describe('browserOpenCommand', () => {
  it.each(PLATFORMS)('runs no shell on %s and passes the URL as one argument', (platform) => {
    for (const url of HOSTILE_URLS) {
      const { command, args } = browserOpenCommand(url, platform);
      expect(SHELLS.has(path.basename(command).toLowerCase())).toBe(false);
      const href = new URL(url).href;
      expect(args.filter((arg) => arg.includes('x.io'))).toEqual([href]);
      expect(args.at(-1)).toBe(href);
    }
  });

  it('opens with rundll32 url.dll on Windows', () => {
    expect(browserOpenCommand('https://x.io/&calc', 'win32')).toEqual({
      command: 'rundll32.exe',
      args: ['url.dll,FileProtocolHandler', 'https://x.io/&calc'],
    });
  });

  it.each(PLATFORMS)('refuses anything but http(s) on %s', (platform) => {
    for (const url of REFUSED_URLS) {
      expect(() => browserOpenCommand(url, platform), url).toThrow(UnsafeLinkError);
    }
  });
});

describe('openInBrowser', () => {
  let dir: string | null = null;
  const savedPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = savedPath;
    delete process.env.TETHER_TEST_OPEN_LOG;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('rejects a non-http(s) URL without spawning anything', async () => {
    for (const url of REFUSED_URLS) await expect(openInBrowser(url)).rejects.toThrow(UnsafeLinkError);
  });

  it('hands the real opener exactly one argument, the URL, with no shell in between', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tether-open-'));
    const log = path.join(dir, 'argv');
    const opener = browserOpenCommand('https://x.io/', process.platform).command;
    const script = path.join(dir, opener);
    writeFileSync(
      script,
      '#!/bin/sh\nprintf \'%s\\0\' "$@" > "$TETHER_TEST_OPEN_LOG.tmp"\nmv "$TETHER_TEST_OPEN_LOG.tmp" "$TETHER_TEST_OPEN_LOG"\n',
    );
    chmodSync(script, 0o755);
    process.env.PATH = `${dir}${path.delimiter}${savedPath ?? ''}`;
    process.env.TETHER_TEST_OPEN_LOG = log;

    const url = 'https://x.io/a"b\'c&calc|d^e';
    await openInBrowser(url);
    await vi.waitFor(() => expect(existsSync(log)).toBe(true), { timeout: 20_000, interval: 25 });
    const argv = readFileSync(log, 'utf8').split('\0').slice(0, -1);
    expect(argv).toEqual([new URL(url).href]);
  });
});
