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
import { newMarker, remoteSh, runOnHost, SHA256_FUNCTION } from './remote-shell';

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
 * Installs `artifact` unless it is installed already (checked again under the lock, so two
 * connects at once install it once). `onProgress` sees the payload bytes sent so far.
 */
export async function installArtifact(
  shell: HostShell,
  artifact: Artifact,
  onProgress: (bytesSent: number) => void,
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
    'umask 077',
    `mkdir -p "${parent}"`,
    // A lock whose holder (by pid, on this host) is gone is stale: take it over.
    'while ! mkdir "$L" 2>/dev/null; do p="$(cat "$L/pid" 2>/dev/null || true)"; ' +
      'if [ -n "$p" ] && ! kill -0 "$p" 2>/dev/null; then rm -rf "$L"; else sleep 0.2; fi; done',
    'echo $$ > "$L/pid"',
    // Whatever happens from here (failure, a cut link's SIGHUP), the staging copy and lock go.
    `trap "rm -rf $S $L" EXIT`,
    'trap "exit 1" HUP INT TERM PIPE',
    `if [ -e "$F/${artifact.completeMarker}" ]; then echo "${marker}-present"; exit 0; fi`,
    'mkdir "$S"',
    `echo "${marker}-ready"`,
    'cat > "$S/payload"',
    `if [ "$(h "$S/payload")" != "${artifact.payloadSha256}" ]; then echo "${marker}-corrupt"; exit 1; fi`,
    ...unpackStatements(artifact.unpack),
    ...(artifact.verify ? [`(cd "$S/tree" && ${artifact.verify})`] : []),
    'mv "$S/tree" "$F"',
    `echo "${marker}-installed"`,
  ]);

  let sending: Promise<void> | null = null;
  const run = await runOnHost(shell, command, {
    onStdout: (stdout, stdin) => {
      if (sending) return;
      if (stdout.includes(`${marker}-present`)) {
        sending = Promise.resolve();
        stdin.end();
      } else if (stdout.includes(`${marker}-ready`)) {
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
  if (run.stdout.includes(`${marker}-present`)) return 'alreadyInstalled';
  if (run.stdout.includes(`${marker}-installed`) && run.code === 0) return 'installed';
  const said = run.stderr.trim();
  if (run.stdout.includes(`${marker}-corrupt`)) {
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
