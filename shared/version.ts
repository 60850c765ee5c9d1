// Tether's version, reported as the exec-server's `executorVersion` and by `tether --version`.
export const TETHER_VERSION = '0.1.0';
