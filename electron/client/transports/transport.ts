// Builds the transports of one client (transport-types.ts says what a transport is). This module
// is the one place in the client that tells transport kinds apart: everything above it asks the
// questions below instead.
import type { TransportSpec } from '../api';
import type { SshHooks } from '../ssh/ssh-hooks';
import type { ArtifactLocations } from '../ssh/local-artifacts';
import { SshTransportOpener } from '../ssh/ssh-transport';
import { openStdioTransport } from './stdio-transport';
import type { TransportOpener } from './transport-types';
import { openWsTransport } from './ws-transport';

export interface TransportOpenerOptions {
  /** Prompts and progress of an SSH connect; without them a question fails the connect. */
  ssh?: SshHooks;
  /** Where the SSH bootstrap finds what it uploads (defaults: this build's dist/ and .cache/). */
  sshArtifacts?: ArtifactLocations;
}

/** The opener for `spec`'s kind. */
export function transportOpener(spec: TransportSpec, options: TransportOpenerOptions = {}): TransportOpener {
  if (spec.kind === 'ssh') return new SshTransportOpener(spec, options.ssh, options.sshArtifacts);
  return {
    prepare: () => Promise.resolve(),
    open: (handlers, timeoutMs) =>
      spec.kind === 'ws'
        ? openWsTransport(spec, handlers, timeoutMs)
        : openStdioTransport(spec, handlers, timeoutMs),
    dispose: () => undefined,
  };
}

/**
 * Why a new link opened from `spec` cannot resume the session of a lost one, or null if it can.
 * A WebSocket reaches the same long-lived server again, and so does an SSH bridge (to the host's
 * daemon); a stdio command starts a new server process that has never heard of the old session.
 */
export function whyLinkCannotResume(spec: TransportSpec): string | null {
  return spec.kind === 'stdio'
    ? 'A new stdio server process cannot resume the old session, so its processes are gone.'
    : null;
}
