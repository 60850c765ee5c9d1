// The link to a host's daemon in one host command when the host is prepared: the checked bridge
// (HostSetup.checkedBridgeCommand) starts while the transport opener prepares, and once its
// preamble arrives the transport it became is handed to the link. A host it finds unprepared (a
// first connect, a new version, a wiped home) is set up (probe, installs) and the bridge started
// again. Written against HostSetup alone, so every kind of HostShell shares it.
import { ClientError } from '../client-error';
import { openStdioTransport } from '../transports/stdio-transport';
import type { Transport, TransportHandlers } from '../transports/transport-types';
import { SshError } from '../transports/ssh/ssh-error';
import { HOST_UNPREPARED_EXIT, SHELL_COULD_NOT_RUN_EXITS } from './host-constants';
import type { HostSetup } from './host-setup';

/** A started bridge whose preamble arrived, waiting for the link to take it. */
export interface StartedBridge {
  /** Hands the transport to the link; throws the bridge's end if it ended meanwhile. */
  attach(handlers: TransportHandlers): Transport;
  /** Ends a bridge the link will not take. */
  close(): void;
}

export interface StartBridgeOptions {
  /** How long the bridge may take to print its preamble. */
  timeoutMs: number;
  /** What an exit status of the bridge means (see StdioTransportSpec.exitError). */
  exitError(code: number | null): ClientError | null;
  /** For the link's log: what the bridge says on stderr (that it relays, and why, for one). */
  log?: (line: string) => void;
}

/** Handlers that hold what arrives until the link attaches its own, and tell how the bridge began. */
class Relay implements TransportHandlers {
  private target: TransportHandlers | null = null;
  private readonly held: Array<[Buffer | string, boolean | undefined]> = [];
  ended: ClientError | null = null;
  private settle: (sign: ClientError | null) => void = () => undefined;
  /** null once the preamble arrived (the bridge runs), or how the bridge ended before it. */
  readonly first = new Promise<ClientError | null>((resolve) => {
    this.settle = resolve;
  });

  onMessage(message: Buffer | string, binary?: boolean): void {
    if (this.target) this.target.onMessage(message, binary);
    else this.held.push([message, binary]);
  }

  onActivity(): void {
    this.settle(null);
    this.target?.onActivity();
  }

  onBroken(reason: string): void {
    // Framing breaks only after the handshake, so only an attached link can see it.
    this.target?.onBroken(reason);
  }

  onClose(error: ClientError): void {
    this.settle(error);
    if (this.target) this.target.onClose(error);
    else this.ended = error;
  }

  attach(handlers: TransportHandlers): void {
    this.target = handlers;
    for (const [message, binary] of this.held.splice(0)) handlers.onMessage(message, binary);
  }
}

/** The one error by which a checked bridge says the host is not prepared. */
const unprepared = new ClientError('transport', 'The host is not prepared for this Tether version.');

/**
 * Starts the checked bridge on the host of `setup`, preparing the host first if the bridge says
 * it must (`onSetup` is told, for the log). Resolves once the bridge runs (its preamble came).
 * `locate`: the bridge only says where the daemon's socket is, then ends (host-direct.ts).
 */
export async function startBridge(
  setup: HostSetup,
  resume: boolean,
  options: StartBridgeOptions,
  onSetup: () => void = () => undefined,
  locate = false,
): Promise<StartedBridge> {
  for (let attempt = 1; ; attempt++) {
    const { argv, preamble } = await setup.checkedBridgeCommand(resume, locate);
    const relay = new Relay();
    // The unprepared exit counts only before the preamble: after it, the bridge (node) runs.
    let running = false;
    const transport = await openStdioTransport(
      {
        command: argv,
        preamble,
        exitError: (code) =>
          !running && (code === HOST_UNPREPARED_EXIT || SHELL_COULD_NOT_RUN_EXITS.includes(code ?? -1))
            ? unprepared
            : options.exitError(code),
        ...(options.log
          ? {
              onStderrLine: (line: string) => options.log!(`bridge: ${line.replace(/^tether bridge: /, '')}`),
            }
          : {}),
      },
      relay,
      options.timeoutMs,
    );
    let timer: NodeJS.Timeout | null = null;
    const timedOut = new Promise<ClientError>((resolve) => {
      timer = setTimeout(
        () => resolve(new ClientError('timeout', `The bridge on ${setup.hostName} did not start in time.`)),
        options.timeoutMs,
      );
    });
    const sign = await Promise.race([relay.first, timedOut]);
    if (timer) clearTimeout(timer);
    if (sign === null) {
      running = true;
      return {
        attach: (handlers) => {
          if (relay.ended) throw relay.ended;
          relay.attach(handlers);
          return transport;
        },
        close: () => transport.close(),
      };
    }
    transport.close();
    if (sign !== unprepared) throw sign;
    if (attempt > 1) {
      throw new SshError(
        'hostSetup',
        'starting',
        `Tether was set up on ${setup.hostName}, but the installed server did not pass its check there.`,
      );
    }
    onSetup();
    await setup.prepare();
  }
}
