// Installs one artifact (the server bundle, or a Node runtime) into its versioned directory on the
// host, through its HostShell: the payload goes through `cat` into a staging directory, its
// sha256 is checked on the host, it is unpacked there and renamed into place, all under a mkdir
// lock. A cut upload never passes the checksum, so an incomplete install is never renamed or run.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SshError } from '../transports/ssh/ssh-error';
import type { HostShell } from './host-shell';
import { MarkerScan, newMarker, remoteSh, runOnHost, SHA256_FUNCTION } from './remote-shell';

/** How the host turns the uploaded payload into the installed tree. */
export type Unpack =
  /** A tar stream (gzip-compressed if `gzip`) of the whole tree. */
  | { kind: 'tar'; gzip: boolean }
  /** bin/node alone, xz-compressed. */
  | { kind: 'xz-node' }
  /** The npm package tarball; only package/bin/node is kept. */
  | { kind: 'npm-node' };

export interface Artifact {
  /** Absolute install directory on the host, e.g. ~/.tether/server/0.1.0-abc123. */
  finalDir: string;
  /** A file inside finalDir whose presence means the install is complete. */
  completeMarker: string;
  payload: { bytes: Buffer } | { file: string };
  payloadBytes: number;
  payloadSha256: string;
  unpack: Unpack;
  /** A command that must succeed inside the staged tree before it is renamed (e.g. run node). */
  verify?: string;
}

export type InstallOutcome = 'installed' | 'alreadyInstalled';

function unpackStatements(unpack: Unpack): string[] {
  switch (unpack.kind) {
    case 'tar':
      return [
        'mkdir "$S/tree"',
        unpack.gzip ? 'gzip -dc "$S/payload" | tar -xf - -C "$S/tree"' : 'tar -xf "$S/payload" -C "$S/tree"',
      ];
    case 'xz-node':
      return [
        'mkdir -p "$S/tree/bin"',
        'xz -dc "$S/payload" > "$S/tree/bin/node"',
        'chmod 755 "$S/tree/bin/node"',
      ];
    case 'npm-node':
      return [
        'gzip -dc "$S/payload" | tar -xf - -C "$S" package/bin/node',
        'mkdir "$S/tree"',
        'mv "$S/package/bin" "$S/tree/bin"',
      ];
  }
}

/** Counts the bytes flowing through, for install progress. */
function counter(onBytes: (total: number) => void): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      onBytes(total);
      done(null, chunk);
    },
  });
}

/**
 * A lock older than this (by its time, which its holder refreshes every LOCK_REFRESH_S) is broken
 * by anyone: its holder died without cleaning up, perhaps before it wrote who it is, or on another
 * host sharing this home (NFS), whose processes this host cannot see.
 */
export const INSTALL_LOCK_STALE_MINUTES = 10;
const LOCK_REFRESH_S = 30;

/** Who holds a lock: host name, boot id and pid, written into `$L/owner` by its holder. */
const HOST_IDENTITY = [
  'H="$(uname -n 2>/dev/null)"',
  'B="$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || true)"',
  'B="${B:-none}"',
];

/**
 * Waits for the lock `$L` and takes it. A held lock is broken only when it is surely stale: its
 * owner is on this host (same host name) and is gone (a dead pid in this boot, or an earlier boot),
 * or it is older than INSTALL_LOCK_STALE_MINUTES. Breaking renames it to a name of our own first,
 * so of two breakers only one removes it; a lock that changed hands meanwhile is put back.
 * While waiting it prints `<marker>-waiting` now and then, which keeps the idle timeout away.
 */
function lockStatements(marker: string): string[] {
  const ownedHereAndGone =
    '[ -n "$o" ] && [ "${o%% *}" = "$H" ] && { set -- $o; ' +
    '{ [ "$B" != none ] && [ "$2" != "$B" ]; } || { [ -n "$3" ] && ! kill -0 "$3" 2>/dev/null; }; }';
  const old = `[ -n "$(find "$L" -prune -mmin +${INSTALL_LOCK_STALE_MINUTES} 2>/dev/null)" ]`;
  return [
    'n=0',
    'while ! mkdir "$L" 2>/dev/null; do ' +
      'o="$(cat "$L/owner" 2>/dev/null || true)"; ' +
      `if { ${ownedHereAndGone}; } || ${old}; then ` +
      'if mv "$L" "$L.broken-$$" 2>/dev/null; then ' +
      'if [ "$(cat "$L.broken-$$/owner" 2>/dev/null || true)" = "$o" ]; then rm -rf "$L.broken-$$"; ' +
      'else mv "$L.broken-$$" "$L" 2>/dev/null || rm -rf "$L.broken-$$"; fi; fi; ' +
      'else sleep 0.2; n=$((n + 1)); ' +
      `if [ $((n % 25)) -eq 0 ]; then echo "${marker}-waiting"; fi; fi; done`,
    'echo "$H $B $$" > "$L/owner"',
    // The holder's heartbeat: a long upload keeps its lock fresh, and it ends with the script.
    `( while sleep ${LOCK_REFRESH_S}; do kill -0 $$ 2>/dev/null || exit 0; touch "$L" 2>/dev/null || exit 0; done ) </dev/null >/dev/null 2>&1 & T=$!`,
  ];
}

/**
 * Installs `artifact` unless it is installed already (checked again under the lock, so two
 * connects at once install it once). `onProgress` sees the payload bytes sent so far.
 */
export async function installArtifact(
  shell: HostShell,
  artifact: Artifact,
  onProgress: (bytesSent: number) => void,
  idleTimeoutMs?: number,
): Promise<InstallOutcome> {
  const marker = newMarker();
  const final = artifact.finalDir;
  const parent = final.slice(0, final.lastIndexOf('/'));
  const staging = `${final}.staging-${randomBytes(4).toString('hex')}`;
  const lock = `${final}.lock`;
  const command = remoteSh([
    SHA256_FUNCTION,
    'set -e',
    `F="${final}"`,
    `S="${staging}"`,
    `L="${lock}"`,
    ...HOST_IDENTITY,
    'umask 077',
    `mkdir -p "${parent}"`,
    ...lockStatements(marker),
    // Whatever happens from here (failure, a cut link's SIGHUP), the staging copy and lock go.
    `trap "kill $T 2>/dev/null; rm -rf $S $L" EXIT`,
    'trap "exit 1" HUP INT TERM PIPE',
    `if [ -e "$F/${artifact.completeMarker}" ]; then echo "${marker}-present"; exit 0; fi`,
    // Staging copies of this artifact left by an installer that was killed outright (no trap ran):
    // with the lock held, none of them is anyone's upload in progress.
    'for d in "$F".staging-*; do if [ -d "$d" ]; then rm -rf "$d"; fi; done',
    // An incomplete tree without its marker (an interrupted mv on an odd filesystem) goes too.
    'if [ -e "$F" ]; then rm -rf "$F"; fi',
    'mkdir "$S"',
    `echo "${marker}-ready"`,
    'cat > "$S/payload"',
    `if [ "$(h "$S/payload")" != "${artifact.payloadSha256}" ]; then echo "${marker}-corrupt"; exit 1; fi`,
    ...unpackStatements(artifact.unpack),
    ...(artifact.verify ? [`(cd "$S/tree" && ${artifact.verify})`] : []),
    'mv "$S/tree" "$F"',
    // Had a wrongly broken lock let a second installer in first, mv nested our copy: drop it.
    'if [ -e "$F/tree" ]; then rm -rf "$F/tree"; fi',
    `echo "${marker}-installed"`,
  ]);

  const scan = new MarkerScan([
    `${marker}-present`,
    `${marker}-ready`,
    `${marker}-corrupt`,
    `${marker}-installed`,
  ]);
  let sending: Promise<void> | null = null;
  const run = await runOnHost(shell, command, {
    stage: 'installing',
    doing: `installing ${final}`,
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
    onStdout: (chunk, stdin) => {
      scan.feed(chunk);
      if (sending) return;
      if (scan.has(`${marker}-present`)) {
        sending = Promise.resolve();
        stdin.end();
      } else if (scan.has(`${marker}-ready`)) {
        const source =
          'bytes' in artifact.payload
            ? Readable.from([artifact.payload.bytes])
            : createReadStream(artifact.payload.file);
        // A failed pipe shows up as the command's failure below, with the host's reason.
        sending = pipeline(source, counter(onProgress), stdin).catch(() => undefined);
      }
    },
  });
  await sending;
  if (scan.has(`${marker}-present`)) return 'alreadyInstalled';
  if (scan.has(`${marker}-installed`) && run.code === 0) return 'installed';
  const said = run.stderr.trim();
  if (scan.has(`${marker}-corrupt`)) {
    throw new SshError(
      'transport',
      'installing',
      `The upload to ${final} arrived incomplete or altered (checksum mismatch); nothing was installed.`,
    );
  }
  if (/No space left/i.test(said)) {
    throw new SshError('hostSetup', 'installing', `The host has no space left for ${final}.\n${said}`);
  }
  if (shell.channelFailureExit !== null && run.code === shell.channelFailureExit) {
    throw new SshError(
      'transport',
      'installing',
      `The connection dropped while installing ${final}; nothing was installed.`,
    );
  }
  throw new SshError(
    'hostSetup',
    'installing',
    `Installing ${final} failed (exit ${run.code}); nothing was installed.${said ? `\n${said}` : ''}`,
  );
}
