// The contract between the SSH bootstrap (this folder, and the host setup in ../../remote-host) and
// whoever drives it: the app (dialogs and stage indicators in the renderer) or `tether ssh` /
// `tether run --ssh` (a terminal).
// The bootstrap never talks to a user itself; it asks through these hooks.

/** The stages of an SSH connect, in order; a failure names the stage it happened in. */
export type SshStage = 'connecting' | 'authenticating' | 'checking' | 'installing' | 'starting' | 'connected';

export interface SshStageEvent {
  stage: SshStage;
  /** Live detail for the user ("uploading node runtime", "linux x64, node 20.19 found", …). */
  detail?: string;
  /** While installing: bytes sent so far and the total to send. */
  bytesSent?: number;
  bytesTotal?: number;
}

/**
 * What ssh asks through SSH_ASKPASS. `hostKey` is the unknown-host confirmation (its text holds
 * the fingerprint; the answer is "yes" or "no"), `password`/`passphrase` are secrets of ssh's own
 * questions, and `server` is a question of the server's (keyboard-interactive: a one-time code, a
 * password), whose text the server chose, so it says nothing trustworthy about what it wants.
 */
export interface SshPrompt {
  kind: 'hostKey' | 'password' | 'passphrase' | 'server' | 'other';
  /** ssh's own prompt text, shown in full (multi-line, fingerprints included). */
  text: string;
  /** The destination as the user named it (config alias or user@host). */
  destination: string;
  /** Secrets are masked when typed; a host-key question is a yes/no choice. */
  secret: boolean;
}

export interface SshHooks {
  /** Asks the user; resolves to the answer, or null when the user cancels. */
  prompt(prompt: SshPrompt): Promise<string | null>;
  onStage(event: SshStageEvent): void;
  /** One line of the connect log (ssh's stderr, probe results, install steps) for *Show log*. */
  onLog(line: string): void;
}
