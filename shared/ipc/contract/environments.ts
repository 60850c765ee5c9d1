// The environments namespace: an environment's settings, link state and health, its test, and the
// commands of electron/app/handlers/environment-handlers.ts.
import { z } from 'zod';
import { checkSshOption, MAX_SSH_OPTIONS, parseSshTarget } from '../../ssh-target';
import {
  command,
  type CommandsOfNamespace,
  Empty,
  EnvironmentId,
  type EventsOfNamespace,
  Ok,
} from './common';
import { SshConnectView } from './ssh';

/** Bounds of an SSH environment's session lifetime (how long a dropped session waits on the host). */
export const SSH_SESSION_TTL_MIN_MS = 60_000;
export const SSH_SESSION_TTL_MAX_MS = 7 * 24 * 3_600_000;

export const EnvironmentKind = z.enum(['local', 'ws', 'command', 'ssh']);
export type EnvironmentKind = z.infer<typeof EnvironmentKind>;

/** Settings per kind. Tokens are write-only: the UI sends one, and only learns whether one is stored. */
export const EnvironmentSettings = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  z.object({
    kind: z.literal('ws'),
    url: z.string().min(1).max(2000),
    /**
     * wss only: the pinned SHA-256 fingerprint of the server certificate (see
     * shared/tls-fingerprint.ts). When set it replaces CA validation; absent, the system CAs decide.
     */
    tlsFingerprint: z.string().max(200).optional(),
  }),
  z.object({
    kind: z.literal('command'),
    /** A command line, split like a POSIX shell would (quotes respected), e.g. `ssh host tether exec-server --listen stdio`. */
    commandLine: z.string().min(1).max(4000),
  }),
  z.object({
    kind: z.literal('ssh'),
    /** An alias from ~/.ssh/config or [user@]host, as ssh takes it (see shared/ssh-target.ts). */
    destination: z
      .string()
      .max(320)
      .refine((d) => {
        const parsed = parseSshTarget(d);
        return parsed.ok && parsed.value.destination === d && parsed.value.port === undefined;
      }, 'not an ssh destination (alias or [user@]host, no port, not starting with "-")'),
    port: z.number().int().min(1).max(65_535).optional(),
    /** Extra `Key=Value` options, each given to ssh as `-o Key=Value`. */
    sshOptions: z
      .array(
        z
          .string()
          .max(1000)
          .refine((o) => checkSshOption(o) === null, 'not a Key=Value ssh option'),
      )
      .max(MAX_SSH_OPTIONS)
      .optional(),
    /** A Node (≥ 20) on the host to run the server with, instead of the one Tether finds or installs. */
    remoteNodePath: z.string().min(1).max(1000).startsWith('/').optional(),
    /** How long the host keeps the session (and its processes) after the link drops. */
    sessionTtlMs: z.number().int().min(SSH_SESSION_TTL_MIN_MS).max(SSH_SESSION_TTL_MAX_MS).optional(),
  }),
]);
export type EnvironmentSettings = z.infer<typeof EnvironmentSettings>;

export const EnvironmentDraft = z.object({
  name: z.string().trim().min(1).max(100),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  settings: EnvironmentSettings,
  /** New token (ws kind). `null` clears a stored token; absent keeps it. */
  token: z.string().max(10_000).nullish(),
});
export type EnvironmentDraft = z.infer<typeof EnvironmentDraft>;

const LinkStateKind = z.enum(['idle', 'connecting', 'connected', 'reconnecting', 'failed', 'closed']);
export type LinkStateKind = z.infer<typeof LinkStateKind>;

export const LinkState = z.object({
  kind: LinkStateKind,
  since: z.number(),
  reason: z.string().optional(),
  attempt: z.number().optional(),
  nextRetryAt: z.number().nullable().optional(),
  /** Reconnecting: when the client stops trying; null: until the server says the session is gone. */
  deadlineAt: z.number().nullable().optional(),
  /** Reconnecting: until when the server holds the session; null: the server does not say (codex). */
  sessionHeldUntil: z.number().nullable().optional(),
  /** Failed: the client error's code (e.g. `unknownSession`). */
  code: z.string().optional(),
  /** Failed because the session is gone: when it ended; its processes ended with it. */
  expiredAt: z.number().optional(),
  /** Failed, but the first connect is retried by itself (the server may not be up yet): when next. */
  retryAt: z.number().optional(),
});
export type LinkState = z.infer<typeof LinkState>;

export const HealthView = z.object({
  rttSamples: z.array(z.tuple([z.number(), z.number()])),
  rttP50Ms: z.number().nullable(),
  rttP95Ms: z.number().nullable(),
  lastRttMs: z.number().nullable(),
  lastContactAt: z.number().nullable(),
  degraded: z.boolean(),
  stalled: z.boolean(),
  reconnectCount: z.number(),
  history: z.array(z.object({ at: z.number(), state: z.string(), reason: z.string().optional() })),
  thresholds: z.object({ degradedRttMs: z.number(), stalledAfterMs: z.number() }),
});
export type HealthView = z.infer<typeof HealthView>;

export const EnvironmentView = z.object({
  id: EnvironmentId,
  name: z.string(),
  color: z.string(),
  settings: EnvironmentSettings,
  hasToken: z.boolean(),
  /** Whether the user wants it connected (a disconnected environment stays idle). */
  enabled: z.boolean(),
  link: LinkState,
  health: HealthView.nullable(),
  /** environmentInfo from the server, as received (platform, shell, version, capabilities...). */
  info: z.record(z.string(), z.unknown()).nullable(),
  /** Output held back because the server cannot pause processes (codex): bytes buffered now. */
  bufferedBytes: z.number(),
  /** SSH environments: the connect's stage, detail and last failure; absent for other kinds. */
  sshConnect: SshConnectView.nullable().optional(),
});
export type EnvironmentView = z.infer<typeof EnvironmentView>;

export const TestConnectionResult = z.object({
  ok: z.boolean(),
  /** Which step failed: name resolution, TCP connect, HTTP auth, protocol handshake, server version. */
  stage: z.enum(['dns', 'refused', 'certificate', 'auth', 'handshake', 'version', 'timeout', 'spawn', 'ok']),
  message: z.string(),
  info: z.record(z.string(), z.unknown()).nullable(),
  rttMs: z.number().nullable(),
  /**
   * Stage 'certificate': the refused certificate. 'untrusted' (no pin, CA validation failed) can be
   * trusted on first use by pinning `fingerprint`; 'changed' means it differs from the `pinned` one.
   */
  certificate: z
    .object({
      problem: z.enum(['untrusted', 'changed']),
      fingerprint: z.string(),
      pinned: z.string().nullable(),
    })
    .optional(),
  /** SSH: where the test got to (the failing stage when it failed). */
  ssh: SshConnectView.optional(),
});
export type TestConnectionResult = z.infer<typeof TestConnectionResult>;

export const environmentCommands = {
  'environments.list': command(Empty, z.array(EnvironmentView)),
  'environments.add': command(EnvironmentDraft, EnvironmentView),
  'environments.update': command(z.object({ id: EnvironmentId, draft: EnvironmentDraft }), EnvironmentView),
  'environments.remove': command(
    z.object({ id: EnvironmentId, terminateProcesses: z.boolean().optional() }),
    Ok,
  ),
  'environments.connect': command(z.object({ id: EnvironmentId }), Ok),
  'environments.disconnect': command(z.object({ id: EnvironmentId }), Ok),
  'environments.reconnectNow': command(z.object({ id: EnvironmentId }), Ok),
  'environments.reconnectAll': command(Empty, Ok),
  /** The renderer saw the network come back (`online`) or the window regain focus: retry now. */
  'environments.networkMayBeBack': command(Empty, Ok),
  'environments.test': command(
    z.object({
      settings: EnvironmentSettings,
      token: z.string().max(10_000).nullish(),
      id: EnvironmentId.optional(),
      /** SSH: the name a prompt shows, and the id its live `ssh.testProgress` events carry. */
      name: z.string().max(100).optional(),
      testId: z.string().min(1).max(100).optional(),
    }),
    TestConnectionResult,
  ),
} as const satisfies CommandsOfNamespace<'environments'>;

export const environmentEvents = {
  /** An environment's config, link state, health or info changed (throttled per environment). */
  'environments.changed': EnvironmentView,
  'environments.removed': z.object({ id: EnvironmentId }),
} as const satisfies EventsOfNamespace<'environments'>;
