// The ssh namespace: an SSH connect's stages, ~/.ssh/config hosts, ssh's prompts, and the commands of
// electron/app/handlers/ssh-handlers.ts.
import { z } from 'zod';
import {
  command,
  type CommandsOfNamespace,
  Empty,
  EnvironmentId,
  type EventsOfNamespace,
  Ok,
} from './common';

/** The stages of an SSH connect, in order (electron/client/transports/ssh/ssh-hooks.ts). */
export const SshStage = z.enum([
  'connecting',
  'authenticating',
  'checking',
  'installing',
  'starting',
  'connected',
]);
export type SshStage = z.infer<typeof SshStage>;

/** Where an SSH connect is: its current stage with live detail, and how the last attempt failed. */
export const SshConnectView = z.object({
  stage: SshStage,
  /** ssh's or the bootstrap's words for what is happening ("uploading node runtime", …). */
  detail: z.string().optional(),
  /** While installing: bytes sent so far, of the total to send. */
  bytesSent: z.number().optional(),
  bytesTotal: z.number().optional(),
  /** The last attempt's failure: the stage it stopped in and ssh's own message. */
  failure: z.object({ stage: SshStage, message: z.string() }).nullable(),
  /**
   * The stages this attempt entered, the current one included. One before the current stage that
   * is not here was skipped: a reconnect over a live master signs in again to nothing, and an
   * installed server is not installed again.
   */
  passed: z.array(SshStage),
  /** Lines in the connect log (ssh.connectLog), so *Show log* knows there is something. */
  logLines: z.number(),
});
export type SshConnectView = z.infer<typeof SshConnectView>;

/** A `Host` entry of ~/.ssh/config, with what `ssh -G` resolves it to. */
export const SshHostView = z.object({
  alias: z.string(),
  user: z.string().nullable(),
  hostname: z.string().nullable(),
  port: z.number().nullable(),
  proxyJump: z.string().nullable(),
  proxyCommand: z.string().nullable(),
  /** Why `ssh -G` could not resolve it (the entry is still listed). */
  problem: z.string().nullable(),
});
export type SshHostView = z.infer<typeof SshHostView>;

/** A question ssh asks (host key, password, passphrase, or the server's own question), waiting for the user. */
export const SshPromptView = z.object({
  id: z.string(),
  /** The environment connecting, or null for a *Test connection* of the environment dialog. */
  envId: EnvironmentId.nullable(),
  /** The name to show ("Lab box"); for a test, the name typed in the dialog. */
  envName: z.string(),
  kind: z.enum(['hostKey', 'password', 'passphrase', 'server', 'other']),
  /** ssh's own text, in full (a host-key question holds the fingerprint). */
  text: z.string(),
  destination: z.string(),
  /** Typed answers are masked; a host-key question is answered by a choice. */
  secret: z.boolean(),
});
export type SshPromptView = z.infer<typeof SshPromptView>;

/** The "Add new SSH host" form, as typed (shared/ssh-host-entry.ts checks each part). */
export const SshHostEntryDraft = z.object({
  alias: z.string().max(256),
  target: z.string().max(512),
  identityFile: z.string().max(4096).optional(),
});
export type SshHostEntryDraft = z.infer<typeof SshHostEntryDraft>;

/** A Host entry and the file it is (or would be) appended to. */
export const SshHostEntryView = z.object({ file: z.string(), alias: z.string(), text: z.string() });
export type SshHostEntryView = z.infer<typeof SshHostEntryView>;

/** What "Uninstall Tether from this host" did there. */
export const SshUninstallReport = z.object({
  host: z.string(),
  /** Pids of Tether daemons that were stopped. */
  stoppedPids: z.array(z.number()),
  /** Paths on the host that were removed. */
  removed: z.array(z.string()),
});
export type SshUninstallReport = z.infer<typeof SshUninstallReport>;

export const sshCommands = {
  /** The `Host` entries of ~/.ssh/config (Includes followed, wildcard patterns skipped), resolved. */
  'ssh.hosts': command(Empty, z.array(SshHostView)),
  /** Prompts waiting for an answer now (one per environment; the rest queue behind it). */
  'ssh.prompts': command(Empty, z.array(SshPromptView)),
  /** Answers a prompt; `null` cancels it (ssh then fails that connect with "cancelled"). */
  'ssh.answerPrompt': command(z.object({ id: z.string(), answer: z.string().max(10_000).nullable() }), Ok),
  /** The connect log of an SSH environment (ssh's stderr, probe and install steps), oldest first. */
  'ssh.connectLog': command(z.object({ envId: EnvironmentId }), z.object({ lines: z.array(z.string()) })),
  /** The entry "Add new SSH host" would append and where, without writing anything. */
  'ssh.planHostEntry': command(SshHostEntryDraft, SshHostEntryView),
  /** Appends that entry to the user's ssh config (asked first in the dialog); refuses a known alias. */
  'ssh.addHostEntry': command(SshHostEntryDraft, SshHostEntryView),
  /**
   * Disconnects an SSH environment and removes Tether from its host: stops Tether's daemons there
   * and removes the server versions, runtimes and run files Tether put there. A connect installs again.
   */
  'ssh.uninstall': command(z.object({ envId: EnvironmentId }), SshUninstallReport),
} as const satisfies CommandsOfNamespace<'ssh'>;

export const sshEvents = {
  /** ssh asks something; the renderer shows it until answered or closed. */
  'ssh.prompt': SshPromptView,
  /** A prompt was answered (maybe in another window), cancelled, or its connect ended. */
  'ssh.promptClosed': z.object({ id: z.string() }),
  /** Live stages of an SSH *Test connection* (by the testId it was started with). */
  'ssh.testProgress': z.object({ testId: z.string(), progress: SshConnectView }),
} as const satisfies EventsOfNamespace<'ssh'>;
