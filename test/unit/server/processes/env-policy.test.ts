import { describe, expect, it } from 'vitest';
import { buildChildEnv, globToRegExp } from '../../../../electron/server/processes/env-policy';

const server = { PATH: '/bin', HOME: '/root', API_KEY: 'k', my_token: 't', FOO: 'foo', BAR: 'bar' };
const policy = {
  inherit: 'all' as const,
  ignoreDefaultExcludes: false,
  exclude: [],
  set: {},
  includeOnly: [],
};

describe('buildChildEnv', () => {
  it('uses env exactly when there is no policy', () => {
    expect(buildChildEnv(server, { A: '1' }, null)).toEqual({ A: '1' });
  });

  it('inherits all but default secret names, case-insensitively', () => {
    expect(buildChildEnv(server, {}, policy)).toEqual({
      PATH: '/bin',
      HOME: '/root',
      FOO: 'foo',
      BAR: 'bar',
    });
    expect(buildChildEnv(server, {}, { ...policy, ignoreDefaultExcludes: true })).toEqual(server);
  });

  it('never inherits the variables that launched the server, but explicit values still apply', () => {
    const launched = { ...server, ELECTRON_RUN_AS_NODE: '1' };
    const all = { ...policy, ignoreDefaultExcludes: true };
    expect(buildChildEnv(launched, {}, all)).toEqual(server);
    expect(buildChildEnv(launched, {}, { ...all, inherit: 'core' })).toEqual({ PATH: '/bin', HOME: '/root' });
    expect(buildChildEnv(launched, { ELECTRON_RUN_AS_NODE: '1' }, all)).toEqual(launched);
  });

  it('inherits core or nothing', () => {
    expect(buildChildEnv(server, {}, { ...policy, inherit: 'core' })).toEqual({
      PATH: '/bin',
      HOME: '/root',
    });
    expect(buildChildEnv(server, {}, { ...policy, inherit: 'none' })).toEqual({});
  });

  it('applies exclude and includeOnly globs, then set, then env', () => {
    const result = buildChildEnv(
      server,
      { FOO: 'from-env' },
      { ...policy, exclude: ['b*'], includeOnly: ['f*', 'PATH', 'BAR'], set: { NEW: 'n', FOO: 'set' } },
    );
    expect(result).toEqual({ PATH: '/bin', FOO: 'from-env', NEW: 'n' });
  });

  it('globs match whole names with * and ? and escape the rest', () => {
    expect(globToRegExp('A?C').test('abc')).toBe(true);
    expect(globToRegExp('A.C').test('ABC')).toBe(false);
    expect(globToRegExp('*KEY*').test('ssh_key_path')).toBe(true);
  });
});
