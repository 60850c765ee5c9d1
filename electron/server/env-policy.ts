// Builds a child's environment from `process/start` params: exactly `env` without a policy;
// with one, the server's environment filtered by inherit/excludes/includeOnly, then set, then env.
import type { EnvPolicy } from '../../shared/protocol';

/** Variables kept by `inherit: "core"`. */
const CORE_ENV_VARS: readonly string[] = [
  'HOME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TEMP',
  'TMP',
  'TMPDIR',
  'USER',
  'USERNAME',
];

/** Secret-looking names dropped unless `ignoreDefaultExcludes` is true. */
const DEFAULT_EXCLUDES: readonly string[] = ['*KEY*', '*SECRET*', '*TOKEN*'];

/** Case-insensitive glob (`*` any run, `?` one character) as a RegExp. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'i');
}

function matchesAny(name: string, patterns: readonly RegExp[]): boolean {
  return patterns.some((pattern) => pattern.test(name));
}

export function buildChildEnv(
  serverEnv: Readonly<Record<string, string | undefined>>,
  env: Readonly<Record<string, string>>,
  policy: EnvPolicy | null | undefined,
): Record<string, string> {
  if (!policy) return { ...env };
  const result: Record<string, string> = {};
  const core = new Set(CORE_ENV_VARS);
  for (const [name, value] of Object.entries(serverEnv)) {
    if (value === undefined) continue;
    if (policy.inherit === 'all' || (policy.inherit === 'core' && core.has(name))) result[name] = value;
  }
  const excludes = [...(policy.ignoreDefaultExcludes ? [] : DEFAULT_EXCLUDES), ...policy.exclude].map(
    globToRegExp,
  );
  const includeOnly = policy.includeOnly.map(globToRegExp);
  for (const name of Object.keys(result)) {
    if (matchesAny(name, excludes) || (includeOnly.length > 0 && !matchesAny(name, includeOnly))) {
      delete result[name];
    }
  }
  Object.assign(result, policy.set, env);
  return result;
}
