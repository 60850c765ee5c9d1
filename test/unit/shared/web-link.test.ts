// The http(s)-only link rule every opener shares.
import { describe, expect, it } from 'vitest';
import { requireWebLink, UnsafeLinkError, webLinkOrNull, webLinksOnly } from '../../../shared/web-link';

describe('requireWebLink', () => {
  it('accepts http and https and returns the normalised URL', () => {
    expect(requireWebLink('https://x.io/a b"c').href).toBe('https://x.io/a%20b%22c');
    expect(requireWebLink('HTTP://X.io').href).toBe('http://x.io/');
  });

  it.each(['file:///etc/passwd', 'javascript:alert(1)', 'vscode://x', 'smb://host/share', 'blob:x', 'a b'])(
    'refuses %s with a message naming what is allowed',
    (url) => {
      expect(() => requireWebLink(url)).toThrow(UnsafeLinkError);
      expect(() => requireWebLink(url)).toThrow(/http/);
      expect(webLinkOrNull(url)).toBeNull();
    },
  );

  it('judges the real host, not what a user-info prefix pretends', () => {
    expect(webLinkOrNull('https://trusted.example@evil.example/')?.host).toBe('evil.example');
  });
});

describe('webLinksOnly (the Electron host wraps shell.openExternal in it)', () => {
  it('calls the opener only for http(s) links, with the normalised URL', async () => {
    const opened: string[] = [];
    const open = webLinksOnly(async (url) => void opened.push(url));
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'x-custom-handler://run?cmd=calc']) {
      await expect(open(url)).rejects.toThrow(UnsafeLinkError);
    }
    await open('https://x.io/a b&calc');
    expect(opened).toEqual(['https://x.io/a%20b&calc']);
  });
});
