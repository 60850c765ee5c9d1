import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { buildEnvironmentInfo } from '../../../../electron/server/rpc/environment-info';

describe('buildEnvironmentInfo', () => {
  it('reports the shell SHELL names', () => {
    expect(buildEnvironmentInfo({ SHELL: '/usr/bin/zsh' }).shell).toEqual({
      name: 'zsh',
      path: '/usr/bin/zsh',
    });
  });

  it("falls back to the account's login shell when SHELL is unset, as codex does", () => {
    const loginShell = os.userInfo().shell;
    expect(loginShell, 'this test needs a user database entry with a shell').toBeTruthy();
    expect(buildEnvironmentInfo({}).shell?.path).toBe(loginShell);
  });

  it('names an unknown shell sh but keeps its path', () => {
    expect(buildEnvironmentInfo({ SHELL: '/opt/fish/bin/fish' }).shell).toEqual({
      name: 'sh',
      path: '/opt/fish/bin/fish',
    });
  });
});
