// Types of fetch-node-runtimes.mjs, for the tests that import it.
export const NODE_RUNTIME_VERSION: string;
export interface RuntimePins {
  version: string;
  runtimes: Record<string, { package: string; npmIntegrity: string; tgzSha256: string; nodeSha256: string }>;
}
export const PINS: RuntimePins;
export function pinsFor(arch: string, version?: string, pins?: RuntimePins): RuntimePins['runtimes'][string];
export function verifyRuntime(
  arch: string,
  files: { tgz: string; xz?: string },
  version?: string,
  pins?: RuntimePins,
): Promise<void>;
