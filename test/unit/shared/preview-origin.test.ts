import { describe, expect, it } from 'vitest';
import { inPreviewOrigin, previewHome } from '../../../shared/preview-origin';

describe('inPreviewOrigin', () => {
  it('takes the forward port on each loopback name', () => {
    expect(inPreviewOrigin(previewHome(5173), 5173)).toBe(true);
    expect(inPreviewOrigin('http://127.0.0.1:5173/src/main.ts?x=1#y', 5173)).toBe(true);
    expect(inPreviewOrigin('http://[::1]:5173/', 5173)).toBe(true);
  });

  it('refuses another port, another host, another scheme, credentials and garbage', () => {
    expect(inPreviewOrigin('http://localhost:5174/', 5173)).toBe(false);
    expect(inPreviewOrigin('http://localhost/', 80)).toBe(false);
    expect(inPreviewOrigin('https://localhost:5173/', 5173)).toBe(false);
    expect(inPreviewOrigin('http://localhost.evil.example:5173/', 5173)).toBe(false);
    expect(inPreviewOrigin('http://10.0.0.1:5173/', 5173)).toBe(false);
    expect(inPreviewOrigin('http://user:pw@localhost:5173/', 5173)).toBe(false);
    expect(inPreviewOrigin('file:///etc/passwd', 5173)).toBe(false);
    expect(inPreviewOrigin('not a url', 5173)).toBe(false);
  });
});
