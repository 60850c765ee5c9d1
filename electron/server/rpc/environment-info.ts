// The `environmentInfo` this server reports from `initialize` and `environment/info`: the host's
// shell, directories and OS, plus the capability flags of the Tether extensions it implements.
import os from 'node:os';
import path from 'node:path';
import {
  SESSION_LIFETIME_CAPABILITY,
  TetherCapability,
  UNAUTHENTICATED_LISTENER_FLAG,
  type EnvironmentInfo,
} from '../../../shared/protocol';
import { TETHER_VERSION } from '../../../shared/version';
import { pathToUri } from '../fs/path-uri';
import { listeningPortsSupported } from '../ports/listening-ports';

const SHELL_NAMES = new Set(['zsh', 'bash', 'powershell', 'sh', 'cmd']);

function platformOs(): string {
  if (process.platform === 'darwin') return 'macos';
  if (process.platform === 'win32') return 'windows';
  return process.platform;
}

/** The account's login shell from the user database: what `SHELL` would say in a login session. */
function passwdShell(): string | null {
  try {
    return os.userInfo().shell || null;
  } catch {
    // No user database entry for this uid (some containers): fall back to /bin/sh.
    return null;
  }
}

export interface EnvironmentInfoOptions {
  /** The WebSocket listener was started with `--ws-auth none`: reported so a client can warn. */
  unauthenticatedListener?: boolean;
  /** How long a detached session is kept (`--session-ttl-ms`): advertised so clients keep trying that long. */
  sessionTtlMs?: number;
}

export function buildEnvironmentInfo(
  env: NodeJS.ProcessEnv = process.env,
  options: EnvironmentInfoOptions = {},
): EnvironmentInfo {
  const shellPath = env.SHELL || passwdShell() || '/bin/sh';
  const base = path.basename(shellPath);
  const tmpdir = env.TMPDIR;
  return {
    shell: { name: SHELL_NAMES.has(base) ? base : 'sh', path: shellPath },
    executorVersion: TETHER_VERSION,
    cwd: pathToUri(process.cwd()),
    userHomeDir: pathToUri(os.homedir()),
    platformOs: platformOs(),
    prependPathDirs: [],
    temporaryDirectories: tmpdir ? [pathToUri(tmpdir)] : [],
    tempDir: pathToUri(os.tmpdir()),
    capabilities: {
      [TetherCapability.processResize]: true,
      [TetherCapability.extendedSignals]: true,
      [TetherCapability.flowControl]: true,
      [TetherCapability.fsRename]: true,
      [TetherCapability.fsRenameOptions]: true,
      [TetherCapability.fsUpdate]: true,
      [TetherCapability.concurrentRequests]: true,
      [TetherCapability.processPid]: true,
      ...(options.sessionTtlMs !== undefined ? { [SESSION_LIFETIME_CAPABILITY]: options.sessionTtlMs } : {}),
      [TetherCapability.closeStdin]: true,
      [TetherCapability.binaryFrames]: true,
      [TetherCapability.sessionProcesses]: true,
      [TetherCapability.sessionEnd]: true,
      [TetherCapability.streams]: true,
      ...(listeningPortsSupported() ? { [TetherCapability.listeningPorts]: true } : {}),
      ...(options.unauthenticatedListener ? { [UNAUTHENTICATED_LISTENER_FLAG]: true } : {}),
    },
  };
}
