// Removes Tether from a host through its HostShell: stops this user's Tether daemons there (only a
// process whose argv names the daemon socket its pidfile sits beside, so a recycled pid is left
// alone), removes the server versions and Node runtimes under ~/.tether, and the daemons' run files.
// The same paths the probe and install use (remote-probe.ts, shared/remote-bundle.ts).
import path from 'node:path';
import {
  HOME_KEY_LENGTH,
  REMOTE_BUNDLE_HASH_LENGTH,
  REMOTE_RUN_DIR_ENV,
  REMOTE_RUN_DIR_PREFIX,
  REMOTE_SERVER_ROOT,
  RUN_DIR_RECORD,
} from '../../../shared/remote-bundle';
import { SshError } from '../transports/ssh/ssh-error';
import { REMOTE_RUNTIME_ROOT } from './host-constants';
import type { HostShell } from './host-shell';
import { framedLines, newMarker, remoteSh, runOnHost } from './remote-shell';

export interface UninstallReport {
  /** The target as messages name it (its HostShell's hostName). */
  host: string;
  /** Pids of the daemons that were stopped. */
  stoppedPids: number[];
  /** Paths removed on the host. */
  removed: string[];
}

/** How long a daemon gets to exit after SIGTERM before it is killed, in tenths of a second. */
const DAEMON_STOP_TENTHS = 50;

/** ~/.tether, which holds the server versions and runtimes (and is removed once they are gone). */
const TETHER_HOME_DIR = path.posix.dirname(REMOTE_SERVER_ROOT);

/** A bundle id as a sh glob: `<version>-<hash>` (the same shape `gc` removes). */
const BUNDLE_ID_GLOB = `[0-9A-Za-z]*-${'[0-9a-f]'.repeat(REMOTE_BUNDLE_HASH_LENGTH)}`;

export async function uninstallFromHost(shell: HostShell): Promise<UninstallReport> {
  const marker = newMarker();
  const run = await runOnHost(
    shell,
    remoteSh([
      `echo "${marker}-begin"`,
      // The run directories this home's daemons may use: the override, else the default one named
      // by the home's key, and a fallback the home recorded (daemon-paths.ts ensureRunDir).
      'K="$(printf %s "$HOME" | { sha256sum 2>/dev/null || shasum -a 256 2>/dev/null || openssl dgst -sha256 -r; } ' +
        `| cut -c1-${HOME_KEY_LENGTH})"`,
      `if [ -n "\${${REMOTE_RUN_DIR_ENV}:-}" ]; then RUNS="$${REMOTE_RUN_DIR_ENV}"; ` +
        `else RUNS="${REMOTE_RUN_DIR_PREFIX}$(id -u)-$K"; fi`,
      `REC="$HOME/${RUN_DIR_RECORD}"`,
      '[ -f "$REC" ] && RUNS="$RUNS $(head -n 1 "$REC")"',
      `S="$HOME/${REMOTE_SERVER_ROOT}"`,
      `T="$HOME/${REMOTE_RUNTIME_ROOT}"`,
      // One statement: remoteSh joins statements with `; `, which may not follow `do`.
      'for R in $RUNS; do ' +
        [
          // Each daemon named by a pidfile, if that pid really is the daemon on that socket.
          `for P in "$R"/${BUNDLE_ID_GLOB}.pid; do ` +
            '[ -f "$P" ] || continue; ' +
            'I="$(cat "$P" 2>/dev/null)"; ' +
            'case "$I" in ""|*[!0-9]*) continue;; esac; ' +
            // Its argv's NULs made spaces first: busybox grep stops reading a line at a NUL.
            'ours() { tr "[:cntrl:]" " " < "/proc/$I/cmdline" 2>/dev/null | grep -q -F "unix:${P%.pid}.sock"; }; ' +
            'ours || continue; ' +
            'kill "$I" 2>/dev/null || continue; ' +
            // A zombie counts as gone: a container whose first process never reaps (`sleep infinity`)
            // keeps its exited children as zombies, which kill -0 still finds.
            'alive() { kill -0 "$I" 2>/dev/null && ! grep -q "^State:[[:space:]]*Z" "/proc/$I/status" 2>/dev/null; }; ' +
            `N=0; while alive && [ $N -lt ${DAEMON_STOP_TENTHS} ]; do sleep 0.1; N=$((N+1)); done; ` +
            // Still the same process (its pid not reused meanwhile), so it is ours to kill.
            'if ours; then kill -9 "$I" 2>/dev/null; fi; ' +
            'echo "stopped=$I"; ' +
            'done',
          `for F in "$R"/${BUNDLE_ID_GLOB}.sock "$R"/${BUNDLE_ID_GLOB}.pid "$R"/${BUNDLE_ID_GLOB}.lock "$R"/${BUNDLE_ID_GLOB}.log ` +
            `"$R"/${BUNDLE_ID_GLOB}.agent.sock "$R"/${BUNDLE_ID_GLOB}.agent-*; do ` +
            '{ [ -e "$F" ] || [ -L "$F" ]; } && rm -f "$F" && echo "removed=$F"; done',
          // Only if nothing else lives there.
          'rmdir "$R" 2>/dev/null && echo "removed=$R"',
        ].join('; ') +
        '; done',
      `for D in "$S" "$T" "$HOME/${TETHER_HOME_DIR}/daemons" "$REC"; do [ -e "$D" ] && rm -rf "$D" && echo "removed=$D"; done`,
      `rmdir "$HOME/${TETHER_HOME_DIR}" 2>/dev/null && echo "removed=$HOME/${TETHER_HOME_DIR}"`,
      `echo "${marker}-end"`,
    ]),
    { stage: 'checking', doing: 'removing Tether from the host' },
  );
  const lines = framedLines(run.stdout, marker);
  if (lines === null || run.code !== 0) {
    throw new SshError(
      'transport',
      'checking',
      `Could not remove Tether from ${shell.hostName} (exit ${run.code}).` +
        (run.stderr.trim() ? `\n${run.stderr.trim()}` : ''),
    );
  }
  return {
    host: shell.hostName,
    stoppedPids: lines.filter(([key]) => key === 'stopped').map(([, value]) => Number(value)),
    removed: lines.filter(([key]) => key === 'removed').map(([, value]) => value),
  };
}
