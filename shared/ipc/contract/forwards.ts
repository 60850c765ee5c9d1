// The forwards namespace: the port forwards of each environment (a local loopback port piped to a
// TCP port on the host), kept in the config and started again after a restart; the commands of
// electron/app/handlers/forward-handlers.ts.
import { z } from 'zod';
import { command, type CommandsOfNamespace, EnvironmentId, type EventsOfNamespace, Ok } from './common';

const Port = z.number().int().min(1).max(65535);
const ForwardId = z.string().min(1).max(100);
/** A local port to bind: a number, or 0 for any free one. */
const LocalPort = z.number().int().min(0).max(65535);

/** A forward as the config keeps it. */
export const StoredForward = z.object({
  id: ForwardId,
  /** The target on the host: `localhost` or a loopback address. */
  host: z.string().min(1).max(255),
  port: Port,
  /** The local port asked for (0: any); absent: the target's number when free (and not below 1024). */
  localPort: LocalPort.optional(),
  label: z.string().max(100).optional(),
});
export type StoredForward = z.infer<typeof StoredForward>;

export const ForwardState = z.enum([
  /** Listening here, and the last connection reached the host's port (or none was made yet). */
  'forwarding',
  /** The last connection was refused on the host: nothing listens on that port now. */
  'nothingListening',
  /** Listening here, but the environment's link is down: connections wait, then are refused. */
  'linkDown',
  /** The local port could not be bound (`error` says why). */
  'failed',
]);
export type ForwardState = z.infer<typeof ForwardState>;

/** How a forward came to be: a URL its process printed, a socket its process listens on, or a user. */
export const ForwardOrigin = z.enum(['printedUrl', 'listeningSocket', 'byHand']);
export type ForwardOrigin = z.infer<typeof ForwardOrigin>;

/** A process on the host as port detection knows it; `pid` null when the server does not say. */
export const PortProcess = z.object({
  pid: z.number().int().positive().nullable(),
  name: z.string().max(256),
});
export type PortProcess = z.infer<typeof PortProcess>;

/** A TCP port listening on the host (loopback or any address). */
export const ListeningPortView = z.object({
  port: Port,
  /** The process that listens, or null when unknown (a codex server, another user's process). */
  process: PortProcess.nullable(),
  /** That process is one Tether started, or a descendant of one: its port is forwarded by itself. */
  startedByTether: z.boolean(),
});
export type ListeningPortView = z.infer<typeof ListeningPortView>;

export const ForwardView = StoredForward.extend({
  envId: EnvironmentId,
  state: ForwardState,
  /** Where it listens, `127.0.0.1:PORT` first; empty when it could not bind. */
  addresses: z.array(z.string()),
  /** The local port bound, or null when it could not bind. */
  boundPort: Port.nullable(),
  /** The local port differs from the target's number (taken here, or below 1024). */
  remapped: z.boolean(),
  error: z.string().nullable(),
  /**
   * Made by port detection (a process Tether started printed its URL or listens on the port):
   * stopped when that process ends or the port stops listening, and not kept.
   */
  auto: z.boolean(),
  /**
   * The environment's server has no TCP streams (a codex exec-server): the forward carries plain
   * HTTP only, through its http/request; WebSockets through it are refused with a page saying so.
   */
  httpOnly: z.boolean(),
  foundBy: ForwardOrigin,
  /** The process it was found through (detected forwards), or null (made by hand). */
  process: PortProcess.nullable(),
});
export type ForwardView = z.infer<typeof ForwardView>;

export const forwardCommands = {
  'forwards.list': command(z.object({ envId: EnvironmentId }), z.array(ForwardView)),
  /** Forwards a port of the host (kept in the config); answers once the local port is bound. */
  'forwards.add': command(
    z.object({
      envId: EnvironmentId,
      host: z.string().min(1).max(255).default('localhost'),
      port: Port,
      localPort: LocalPort.optional(),
      label: z.string().max(100).optional(),
    }),
    ForwardView,
  ),
  /** Binds the forward to another local port (released and bound again at once). */
  'forwards.setLocalPort': command(
    z.object({ envId: EnvironmentId, id: ForwardId, localPort: LocalPort }),
    ForwardView,
  ),
  /**
   * The TCP ports listening on the host's loopback or any address, ascending, with their processes
   * where the server says (docs/forwarding.md#detected-ports); none while not connected.
   */
  'forwards.listening': command(z.object({ envId: EnvironmentId }), z.array(ListeningPortView)),
  /** Stops the forward (its port is released at once) and forgets it. */
  'forwards.stop': command(z.object({ envId: EnvironmentId, id: ForwardId }), Ok),
} as const satisfies CommandsOfNamespace<'forwards'>;

export const forwardEvents = {
  /** The forwards of one environment, whole, whenever one of them changed. */
  'forwards.changed': z.object({ envId: EnvironmentId, forwards: z.array(ForwardView) }),
  /**
   * Ports of processes Tether started were forwarded by detection: one notice for all of them
   * (several found together are summarised), each port announced once per run.
   */
  'forwards.detected': z.object({ envId: EnvironmentId, forwards: z.array(ForwardView).min(1) }),
} as const satisfies EventsOfNamespace<'forwards'>;
