// A HostShell is a way to run sh on a target host: over an SSH master today, `docker exec` or any
// exec prefix next. Probing, installing, garbage-collecting and bridging to the daemon
// (host-setup.ts and the files beside it) are written once against it: everything they do on the
// host is one `sh -c` script run through commandArgv, with its stdin as the way files travel and
// its stdout as the bridge's protocol stream.
export interface HostShell {
  /** The host as messages name it (`me@build-box`). */
  readonly hostName: string;
  /**
   * argv of a local command that runs `script` (one line of sh, see remoteSh) on the host, with
   * the command's stdin, stdout and stderr as the script's. It never prompts.
   */
  commandArgv(script: string, options?: { agent?: boolean }): string[];
  /**
   * The user's own configuration forwards their SSH agent to this host (ssh's ForwardAgent): then
   * the bridge, and it alone (`commandArgv(…, { agent: true })`), carries the agent, which the
   * daemon's processes reach through a stable link while a bridge that has it lives.
   */
  readonly forwardsAgent?: boolean;
  /**
   * The exit status by which the local command says the channel to the host failed (not the
   * script), or null if it has none (ssh: 255).
   */
  readonly channelFailureExit: number | null;
  /** A way for links to reach the daemon's socket without the bridge, where the shell has one. */
  readonly direct?: DirectSocketRoad;
}

/** A local unix socket that the shell's connection forwards to a socket on the host. */
export interface ForwardedSocket {
  /** The local end (in a private 0700 directory of ours), for net.connect. */
  readonly localPath: string;
  /** Cancels the forward and removes the local socket. */
  close(): void;
}

/**
 * What a shell may offer besides running commands: a forward from a local unix socket to a unix
 * socket on the host (OpenSSH's streamlocal forwarding over the master), so a link reaches the
 * daemon with no process of ours in between. Kinds without one (containers) keep the bridge.
 */
export interface DirectSocketRoad {
  /** Why links must take the bridge on this shell now (the agent is forwarded), or null. */
  unavailable(): string | null;
  /** Forwards a fresh local socket to `remoteSocket` on the host. */
  forward(remoteSocket: string): Promise<ForwardedSocket>;
  /** What an earlier process learned for `bundleId` on this host: its daemon's socket, or that the host refused. */
  recall(bundleId: string): DirectMemory | null;
  remember(bundleId: string, memory: DirectMemory): void;
}

/** A remembered daemon socket on the host, or that its sshd refused to forward to it. */
export type DirectMemory = { socket: string } | { refused: true };
