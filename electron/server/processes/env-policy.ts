// Builds a child's environment from `process/start` params: exactly `env` without a policy;
// with one, the server's environment filtered by inherit/excludes/includeOnly, then set, then env.
// Variables that only launched the server itself are never inherited, whatever the policy.
import type { EnvPolicy } from '../../../shared/protocol';

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

/**
 * Set by whoever started the server, for the server alone; a child that inherited them would
 * misbehave. ELECTRON_RUN_AS_NODE makes the app's Electron binary run the Local server as Node: any
 * Electron program started from a shell that inherits it (VS Code's `code`, the app itself) would
 * come up as a bare Node instead. Explicit `set`/`env` values from the client still apply.
 */
const LAUNCH_ONLY_ENV_VARS: ReadonlySet<string> = new Set(['ELECTRON_RUN_AS_NODE']);

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
    if (value === undefined || LAUNCH_ONLY_ENV_VARS.has(name)) continue;
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
