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
}
