// The links of a bootstrapped target (SSH host, container, exec prefix): each is the stdio
// transport over the bridge to the target's daemon, run through its HostShell. A reconnect runs
// the bridge with --no-start, whose exit 90 means the daemon (and so the session) is gone: that is
// said plainly, and never papered over with a fresh session.
import { BRIDGE_EXIT_NO_DAEMON } from '../../../shared/remote-bundle';
import { ClientError, isClientError } from '../client-error';
import { CONNECT_TIMEOUT_MS } from '../constants';
import { SshError } from '../transports/ssh/ssh-error';
import type { Transport, TransportHandlers, TransportOpener } from '../transports/transport-types';
import type { HostBootstrap } from './host-bootstrap';
import { startBridge, type StartedBridge } from './host-bridge';

/** How a target names the end of its shell's channel, for the bridge's exit errors. */
export interface ChannelWords {
  /** The target as messages name it. */
  target: string;
  /** The shell's exit status for a failed channel (ssh's 255), or null if it has none. */
  failureExit: number | null;
  /** What that failure means to the user. */
  lost: string;
}

/**
 * What the end of a bridge means, in the user's words, where its exit status tells: the daemon is
 * gone (a reconnect with --no-start), or the channel to the target failed. Null: the stdio
 * transport's own.
 */
export function bridgeExitError(
  code: number | null,
  resume: boolean,
  words: ChannelWords,
): ClientError | null {
  if (resume && code === BRIDGE_EXIT_NO_DAEMON) {
    return new ClientError(
      'unknownSession',
      `The session was lost on ${words.target}: Tether's daemon there is gone (e.g. after a ` +
        'reboot or a restart), and with it the processes of this session. Reconnect to start a new session.',
    );
  }
  if (words.failureExit !== null && code === words.failureExit) {
    return new ClientError('disconnected', words.lost);
  }
  return null;
}

export class HostTransportOpener implements TransportOpener {
  /** The bridge prepare started, until open hands it to the link. */
  private started: StartedBridge | null = null;

  constructor(
    private readonly bootstrap: HostBootstrap,
    private readonly words: ChannelWords,
    /** The links' description ("ssh me@box"). */
    private readonly description: string,
  ) {}

  /**
   * Reaches the target's shell and starts the bridge: on a prepared target that is the only
   * command run there; an unprepared one is examined and installed to first (host-bridge.ts).
   */
  async prepare(resume: boolean): Promise<void> {
    this.started?.close();
    this.started = null;
    const setup = await this.bootstrap.prepare();
    try {
      this.started = await startBridge(setup, resume, {
        timeoutMs: CONNECT_TIMEOUT_MS,
        exitError: (code) => bridgeExitError(code, resume, this.words),
      });
    } catch (error) {
      // The bridge ended or stalled before a byte came over the shell: it may be stuck on a dead
      // route. (A failed setup step is an SshError, and says nothing about the channel.)
      if (!(error instanceof SshError)) this.bootstrap.suspectMaster();
      throw isClientError(error) ? await this.bootstrap.access.explain(error) : error;
    }
    this.bootstrap.connected(resume);
  }

  open(handlers: TransportHandlers): Promise<Transport> {
    const started = this.started;
    this.started = null;
    if (!started) {
      return Promise.reject(new ClientError('transport', `${this.words.target} is not prepared.`));
    }
    let closedByUs = false;
    try {
      const transport = started.attach({
        onMessage: (message, binary) => handlers.onMessage(message, binary),
        onBroken: (reason) => handlers.onBroken(reason),
        onActivity: () => handlers.onActivity(),
        onClose: (error) => {
          // The target may say why in its own terms (a container stopped): asked before reporting.
          void this.bootstrap.access.explain(error).then((explained) => {
            if (!closedByUs) handlers.onClose(explained);
          });
        },
      });
      return Promise.resolve({
        ...transport,
        close: () => {
          closedByUs = true;
          transport.close();
        },
        description: this.description,
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  linkStalled(): void {
    this.bootstrap.suspectMaster();
  }

  dispose(): void {
    this.started?.close();
    this.started = null;
    this.bootstrap.dispose();
  }
}
