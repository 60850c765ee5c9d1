// The links of a bootstrapped target (SSH host, container, exec prefix): each is the stdio
// transport over the bridge to the target's daemon, run through its HostShell, or, where the shell
// forwards a local socket to the daemon's (SSH), a direct link with nothing of ours in between
// (host-direct.ts), which falls back to the bridge when the host will not forward. A reconnect
// runs the bridge (or its locate) with --no-start, whose exit 90 means the daemon (and so the
// session) is gone: that is said plainly, and never papered over with a fresh session.
import { BRIDGE_EXIT_NO_DAEMON } from '../../../shared/remote-bundle';
import { ClientError, isClientError } from '../client-error';
import { CONNECT_TIMEOUT_MS } from '../constants';
import { SshError } from '../transports/ssh/ssh-error';
import type { Transport, TransportHandlers, TransportOpener } from '../transports/transport-types';
import type { HostBootstrap } from './host-bootstrap';
import { startBridge, type StartBridgeOptions, type StartedBridge } from './host-bridge';
import { locateDaemon, openDirectLink } from './host-direct';
import type { HostSetup } from './host-setup';
import type { DirectSocketRoad } from './host-shell';

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
  /** The bridge (or direct link) prepare started, until open hands it to the link. */
  private started: StartedBridge | null = null;
  /** The daemon's socket on the target, once learned (from memory or the bridge's locate). */
  private daemonSocket: string | null = null;
  /** The target would not forward to the daemon's socket: links take the bridge. */
  private directRefused = false;
  /** The last reason the connect log gave for taking the bridge (said once, not per link). */
  private bridgeReasonSaid: string | null = null;

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
    const options: StartBridgeOptions = {
      timeoutMs: CONNECT_TIMEOUT_MS,
      exitError: (code) => bridgeExitError(code, resume, this.words),
      log: (line) => this.bootstrap.log(line),
    };
    try {
      this.started =
        (await this.startDirect(setup, resume, options)) ?? (await startBridge(setup, resume, options));
    } catch (error) {
      // The bridge ended or stalled before a byte came over the shell: it may be stuck on a dead
      // route. (A failed setup step is an SshError, and says nothing about the channel.)
      if (!(error instanceof SshError)) this.bootstrap.suspectMaster();
      throw isClientError(error) ? await this.bootstrap.access.explain(error) : error;
    }
    this.bootstrap.connected(resume);
  }

  /**
   * The direct link, if the target's shell offers one and it answers: first at the socket known
   * (this link's predecessors, or a memory an earlier process left), else where the bridge's
   * locate says the daemon is (starting it on a fresh connect, like the bridge). Null: take the
   * bridge. A daemon the locate reached but the forward does not means the host refuses to forward
   * (sshd's AllowStreamLocalForwarding no, or `restrict` in authorized_keys); that is remembered.
   */
  private async startDirect(
    setup: HostSetup,
    resume: boolean,
    options: StartBridgeOptions,
  ): Promise<StartedBridge | null> {
    const road = setup.hostShell.direct;
    if (!road) return null;
    const unavailable = road.unavailable();
    if (unavailable !== null) return this.takeBridge(unavailable);
    const bundleId = await setup.bundleId();
    if (this.daemonSocket === null && !this.directRefused) {
      const memory = road.recall(bundleId);
      if (memory && 'refused' in memory) this.directRefused = true;
      else if (memory) this.daemonSocket = memory.socket;
    }
    if (this.directRefused) {
      return this.takeBridge(
        `${setup.hostName} would not forward a socket to the daemon's (remembered from an earlier connect)`,
      );
    }
    if (this.daemonSocket !== null) {
      const link = await this.tryDirect(road, this.daemonSocket);
      if (link) return link;
      this.bootstrap.log(
        `link: nothing answered on the daemon's socket ${this.daemonSocket}; asking the host`,
      );
    }
    // On resume (--no-start) this throws the lost session when the daemon is gone.
    const located = await locateDaemon(setup, resume, options, () =>
      this.bootstrap.log('link: preparing the host'),
    );
    this.daemonSocket = located;
    road.remember(bundleId, { socket: located });
    const link = await this.tryDirect(road, located);
    if (link) return link;
    this.directRefused = true;
    road.remember(bundleId, { refused: true });
    return this.takeBridge(
      `${setup.hostName} would not forward a socket to the daemon's (sshd's AllowStreamLocalForwarding, ` +
        'or restrict in authorized_keys)',
    );
  }

  private async tryDirect(road: DirectSocketRoad, socket: string): Promise<StartedBridge | null> {
    let forwarded;
    try {
      forwarded = await road.forward(socket);
    } catch (error) {
      this.bootstrap.log(`link: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
    const link = await openDirectLink(forwarded, this.words.target, CONNECT_TIMEOUT_MS);
    if (link) this.bootstrap.log(`link: direct socket (${forwarded.localPath} -> ${socket}), no bridge`);
    return link;
  }

  /** Null (take the bridge), saying why in the connect log the first time this reason comes. */
  private takeBridge(reason: string): null {
    if (this.bridgeReasonSaid !== reason) this.bootstrap.log(`link: the bridge, because ${reason}`);
    this.bridgeReasonSaid = reason;
    return null;
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
