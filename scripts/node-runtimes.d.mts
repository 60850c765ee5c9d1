// Types of node-runtimes.mjs, for the app and the tests that import it.
export const NODE_RUNTIME_VERSION: string;
/** sha256 of a file, in hex. */
export function sha256(file: string): Promise<string>;
export interface RuntimePins {
  version: string;
  runtimes: Record<string, { package: string; npmIntegrity: string; tgzSha256: string; nodeSha256: string }>;
}
export const PINS: RuntimePins;
export const DEFAULT_NPM_REGISTRY: string;
export function npmRegistry(env?: NodeJS.ProcessEnv): string;
export function runtimeTarballName(arch: string, version?: string): string;
export function pinsFor(arch: string, version?: string, pins?: RuntimePins): RuntimePins['runtimes'][string];
export function verifyRuntime(
  arch: string,
  files: { tgz: string; xz?: string },
  version?: string,
  pins?: RuntimePins,
): Promise<void>;
export function fetchRuntimeTarball(options: {
  arch: string;
  dir: string;
  registry?: string;
  version?: string;
  pins?: RuntimePins;
  onProgress?: (bytes: number, total: number | null) => void;
}): Promise<string>;
