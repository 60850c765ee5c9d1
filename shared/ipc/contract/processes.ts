// The processes namespace: a process, its ordered events, and the commands of
// electron/app/handlers/process-handlers.ts.
import { z } from 'zod';
import {
  Bytes,
  command,
  type CommandsOfNamespace,
  EnvironmentId,
  type EventsOfNamespace,
  Ok,
} from './common';

/** The most one processes.write carries (a terminal's paste goes in smaller pieces). */
const MAX_WRITE_BYTES = 1_048_576;

export const ProcessKey = z.object({ envId: EnvironmentId, processId: z.string().min(1).max(200) });
export type ProcessKey = z.infer<typeof ProcessKey>;

const ProcessState = z.enum(['starting', 'running', 'exited', 'failed', 'lost']);
export type ProcessState = z.infer<typeof ProcessState>;

/** A process another client started that this app follows (the server's tetherSessionProcesses). */
export const WatchedProcess = z.object({
  /** The owner's `clientName`, e.g. `codex-environment`. */
  clientName: z.string(),
  /** The owner's session on the server. */
  sessionId: z.string(),
  /** Taken over: input, resize and signals from this app reach it; otherwise read-only. */
  control: z.boolean(),
  /** Moved under this app's session (Keep): its life no longer follows the owner's session. */
  kept: z.boolean(),
});
export type WatchedProcess = z.infer<typeof WatchedProcess>;

/** A process of another session of the same credential, as the server lists it. */
export const OtherProcessView = z.object({
  sessionId: z.string(),
  clientName: z.string(),
  processId: z.string(),
  argv: z.array(z.string()),
  cwd: z.string(),
  tty: z.boolean(),
  state: z.enum(['running', 'exited', 'closed']),
  startedAt: z.number(),
  exitCode: z.number().nullable(),
});
export type OtherProcessView = z.infer<typeof OtherProcessView>;
/** One command an integrated shell ran (its OSC 133 marks), as the shell's history keeps it. */
export const ShellCommand = z.object({
  line: z.string().max(2_000),
  /** The folder the shell reported (OSC 7) when the command started. */
  cwd: z.string().max(4_096).nullable(),
  startedAt: z.number(),
  /** Null while it runs. */
  endedAt: z.number().nullable(),
  /** Null while it runs, or when the shell reported none. */
  exitCode: z.number().int().nullable(),
});
export type ShellCommand = z.infer<typeof ShellCommand>;

export const ProcessView = z.object({
  envId: EnvironmentId,
  processId: z.string(),
  argv: z.array(z.string()),
  /** Short label for tabs and lists. */
  title: z.string(),
  cwd: z.string(),
  tty: z.boolean(),
  state: ProcessState,
  pid: z.number().nullable(),
  exitCode: z.number().nullable(),
  failure: z.string().nullable(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  /** Terminal size last applied; null when the server cannot resize (size is fixed). */
  size: z.object({ cols: z.number(), rows: z.number() }).nullable(),
  resizable: z.boolean(),
  /** Set for a process another client started, followed here (processes.watch). */
  watched: WatchedProcess.optional(),
  /**
   * The commands an integrated shell ran, oldest first (a running one last, without its end);
   * absent for a process that never marked a command.
   */
  commands: z.array(ShellCommand).optional(),
});
export type ProcessView = z.infer<typeof ProcessView>;

/** Where output that can no longer be shown was dropped: the server's log, or the app's. */
export const GapCause = z.enum(['server', 'app']);
export type GapCause = z.infer<typeof GapCause>;

/** One ordered event of one process, as the renderer receives it. Output is raw bytes. */
export const ProcessEventView = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('output'),
    seq: z.number(),
    stream: z.enum(['stdout', 'stderr', 'pty']),
    data: Bytes,
  }),
  z.object({ kind: z.literal('exited'), seq: z.number(), exitCode: z.number() }),
  z.object({ kind: z.literal('closed'), seq: z.number() }),
  /** Seqs fromSeq..toSeq (inclusive) can no longer be delivered: drawn as a marker. */
  z.object({
    kind: z.literal('gap'),
    fromSeq: z.number(),
    toSeq: z.number(),
    at: z.number(),
    /** Absent: the server (as before the app kept its own bound). */
    cause: GapCause.optional(),
  }),
  z.object({ kind: z.literal('failed'), seq: z.number(), message: z.string() }),
]);
export type ProcessEventView = z.infer<typeof ProcessEventView>;

/** The last seq an event covers: its seq, or a gap's toSeq. Cursors ("last seq handled") use it. */
export function lastSeqOf(event: ProcessEventView): number {
  return event.kind === 'gap' ? event.toSeq : event.seq;
}

export const ProcessEventBatch = z.object({
  envId: EnvironmentId,
  processId: z.string(),
  events: z.array(ProcessEventView),
});
export type ProcessEventBatch = z.infer<typeof ProcessEventBatch>;

export const processCommands = {
  'processes.list': command(z.object({ envId: EnvironmentId }), z.array(ProcessView)),
  'processes.start': command(
    z.object({
      envId: EnvironmentId,
      /** Absent: the user's login shell. */
      argv: z.array(z.string()).min(1).optional(),
      /** A shell command line, run with `$SHELL -lc`. Exclusive with argv. */
      shellLine: z.string().min(1).optional(),
      cwd: z.string().optional(),
      env: z.record(z.string(), z.string()).optional(),
      tty: z.boolean(),
      size: z.object({ cols: z.number().int().min(1), rows: z.number().int().min(1) }).optional(),
    }),
    ProcessView,
  ),
  /** Input for a process: raw bytes (what a terminal emits), or text sent as its UTF-8. */
  'processes.write': command(
    ProcessKey.extend({
      data: z.union([
        Bytes.refine((bytes) => bytes.byteLength <= MAX_WRITE_BYTES, 'at most 1 MiB per write'),
        z.string().max(MAX_WRITE_BYTES),
      ]),
    }),
    Ok,
  ),
  /**
   * Ends the process's input after the writes before it (a pipe is closed, a terminal gets its EOF
   * character); `unsupported` for a pipe process on a server that cannot close stdin (codex).
   */
  'processes.closeStdin': command(ProcessKey, Ok),
  'processes.resize': command(
    ProcessKey.extend({
      cols: z.number().int().min(1).max(10_000),
      rows: z.number().int().min(1).max(10_000),
    }),
    z.object({ applied: z.boolean() }),
  ),
  'processes.signal': command(
    ProcessKey.extend({ signal: z.enum(['interrupt', 'terminate', 'kill', 'hangup']) }),
    Ok,
  ),
  'processes.restart': command(ProcessKey, ProcessView),
  /** Drop a finished process from the list (a running one must be terminated first). */
  'processes.forget': command(ProcessKey, Ok),
  /**
   * Retained events with seq > afterSeq, for a pane opening or a reloaded renderer. Events with
   * seq ≤ `shownThroughSeq` were already parsed by some terminal: their queries were answered then.
   */
  'processes.replay': command(
    ProcessKey.extend({ afterSeq: z.number().int().min(0) }),
    z.object({ events: z.array(ProcessEventView), lastSeq: z.number(), shownThroughSeq: z.number() }),
  ),
  /**
   * Flow control: the renderer has consumed `deltaBytes` more output bytes of this process since
   * its previous ack. A delta, unlike the server's cumulative `process/ack`: a renderer joins
   * mid-stream (after a reload) and has no offset of its own. `shownThroughSeq`, when set, is the
   * last seq its terminal has parsed (bytes acked without a terminal leave it out).
   */
  'processes.ack': command(
    ProcessKey.extend({
      deltaBytes: z.number().int().min(0),
      shownThroughSeq: z.number().int().min(0).optional(),
    }),
    Ok,
  ),
  /**
   * The processes other clients with the same credential started on the environment's server.
   * `available` is false (with the reason) on a server without the extension, such as codex's.
   */
  'processes.others': command(
    z.object({ envId: EnvironmentId }),
    z.object({ available: z.boolean(), reason: z.string().nullable(), processes: z.array(OtherProcessView) }),
  ),
  /** Follows another client's process here, read-only, from its retained output on. */
  'processes.watch': command(
    z.object({ envId: EnvironmentId, sessionId: z.string().min(1), processId: z.string().min(1) }),
    ProcessView,
  ),
  /** A watched process takes this app's input, resizes and signals from now on (control is shared). */
  'processes.takeOver': command(ProcessKey, ProcessView),
  /** A watched process moves under this app's session, so the owner's session ending no longer ends it. */
  'processes.keep': command(ProcessKey, ProcessView),
} as const satisfies CommandsOfNamespace<'processes'>;

export const processEvents = {
  'processes.changed': ProcessView,
  'processes.removed': ProcessKey,
  /** Ordered, batched output; per process, seqs are ascending and each seq is sent once. */
  'processes.events': z.array(ProcessEventBatch),
  /** A process of another client started, exited or closed: ask processes.others again. */
  'processes.othersChanged': z.object({ envId: EnvironmentId }),
} as const satisfies EventsOfNamespace<'processes'>;
