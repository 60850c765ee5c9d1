// Builds the transports of one client (transport-types.ts says what a transport is), through the
// TransportSpec kinds' registry (kinds.ts): nothing here or above tells transport kinds apart.
import type { TransportSpec } from '../api';
import { transportKind } from './kinds';
import type { TransportOpener, TransportOpenerOptions } from './transport-types';

/** The opener for `spec`'s kind. */
export function transportOpener(spec: TransportSpec, options: TransportOpenerOptions = {}): TransportOpener {
  return transportKind(spec.kind).opener(spec, options);
}

/**
 * Why a new link opened from `spec` cannot resume the session of a lost one, or null if it can
 * (a WebSocket or an SSH bridge reaches the same long-lived server again; a stdio command does not).
 */
export function whyLinkCannotResume(spec: TransportSpec): string | null {
  return transportKind(spec.kind).whyLinkCannotResume(spec);
}
