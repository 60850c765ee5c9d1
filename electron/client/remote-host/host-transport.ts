// The links of a bootstrapped target (SSH host, container, exec prefix): each is the stdio
// transport over the bridge to the target's daemon, run through its HostShell. A reconnect runs
// the bridge with --no-start, whose exit 90 means the daemon (and so the session) is gone: that is
// said plainly, and never papered over with a fresh session.
import { BRIDGE_EXIT_NO_DAEMON } from '../../../shared/remote-bundle';
import { ClientError } from '../client-error';
import { openStdioTransport } from '../transports/stdio-transport';
import type { Transport, TransportHandlers, TransportOpener } from '../transports/transport-types';
import type { HostBootstrap } from './host-bootstrap';

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
  constructor(
    private readonly bootstrap: HostBootstrap,
    private readonly words: ChannelWords,
    /** The links' description ("ssh me@box"). */
    private readonly description: string,
  ) {}

  prepare(resume: boolean): Promise<void> {
    return this.bootstrap.prepare(resume);
  }

  async open(handlers: TransportHandlers, timeoutMs: number, resume: boolean): Promise<Transport> {
    const { argv, preamble } = this.bootstrap.bridgeCommand(resume);
    let delivered = false;
    let closedByUs = false;
    const transport = await openStdioTransport(
      {
        command: argv,
        preamble,
        exitError: (code) => bridgeExitError(code, resume, this.words),
      },
      {
        onMessage: (message) => handlers.onMessage(message),
        onActivity: () => {
          if (!delivered) {
            delivered = true;
            this.bootstrap.connected();
          }
          handlers.onActivity();
        },
        onClose: (error) => {
          if (!delivered) this.bootstrap.suspectMaster();
          // The target may say why in its own terms (a container stopped): asked before reporting.
          void this.bootstrap.access.explain(error).then((explained) => {
            if (!closedByUs) handlers.onClose(explained);
          });
        },
      },
      timeoutMs,
    );
    return {
      ...transport,
      close: () => {
        closedByUs = true;
        transport.close();
      },
      description: this.description,
    };
  }

  linkStalled(): void {
    this.bootstrap.suspectMaster();
  }

  dispose(): void {
    this.bootstrap.dispose();
  }
}
