// The http(s)-only link rule every opener shares.
import { describe, expect, it } from 'vitest';
import { requireWebLink, UnsafeLinkError, webLinkOrNull } from '../../../shared/web-link';

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
