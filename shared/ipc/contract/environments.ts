// The environments namespace: an environment's settings, link state and health, its test, and the
// commands of electron/app/handlers/environment-handlers.ts.
import { z } from 'zod';
import { EnvironmentSettings } from '../../environment-kinds';
import {
  command,
  type CommandsOfNamespace,
  Empty,
  EnvironmentId,
  type EventsOfNamespace,
  Ok,
} from './common';
import { SshConnectView } from './ssh';
import { TerminalProfile } from '../terminal-profile';

export {
  CONTAINER_ENGINES,
  CONTAINER_NAME,
  ContainerEngine,
  EnvironmentKind,
  EnvironmentSettings,
  SSH_SESSION_TTL_MAX_MS,
  SSH_SESSION_TTL_MIN_MS,
  type SettingsOf,
} from '../../environment-kinds';

export const EnvironmentDraft = z.object({
  name: z.string().trim().min(1).max(100),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  settings: EnvironmentSettings,
  /** What its new shells start as; absent keeps the stored profile (the empty one for a new environment). */
  terminalProfile: TerminalProfile.optional(),
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
  /** While stalled: when the client replaces the link by itself (null: not stalled, or it cannot). */
  stallReconnectAt: z.number().nullable(),
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
  /** The folder the environment's workspace is rooted in (Files opens there); absent: home. */
  workspaceFolder: z.string().nullable().optional(),
  terminalProfile: TerminalProfile,
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
  /** Roots the environment's workspace in the folder `path` (checked to be one), or home with null. */
  'environments.setWorkspaceFolder': command(
    z.object({ id: EnvironmentId, path: z.string().min(1).max(4096).nullable() }),
    EnvironmentView,
  ),
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
