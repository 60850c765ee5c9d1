// The shell.openExternal command: only http(s) links reach the host's opener, in their normalised
// form; everything else is refused with invalidInput and a message naming the scheme.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './app-harness';

let h: Harness;
let opened: string[];
beforeEach(async () => {
  opened = [];
  h = await createHarness({
    autoConnect: false,
    openExternal: async (url) => void opened.push(url),
  });
});
afterEach(() => h.close());

describe('shell.openExternal', () => {
  it.each([
    ['file:///etc/passwd', '"file:"'],
    ['javascript:alert(1)', '"javascript:"'],
    ['vscode://file/etc/passwd', '"vscode:"'],
    ['ms-settings:display', '"ms-settings:"'],
    ['data:text/html,hi', '"data:"'],
  ])('refuses %s', async (url, scheme) => {
    const result = await h.raw('shell.openExternal', { url });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    expect(result.ok ? '' : result.error.message).toContain(scheme);
    expect(opened).toEqual([]);
  });

  it('hands an http(s) link to the host once, as one normalised URL', async () => {
    await h.invoke('shell.openExternal', { url: 'https://x.io/a b&calc|d^"e' });
    await h.invoke('shell.openExternal', { url: 'http://x.io/' });
    expect(opened).toEqual(['https://x.io/a%20b&calc|d^%22e', 'http://x.io/']);
  });
});
