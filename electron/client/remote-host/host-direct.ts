// The direct link to a host's daemon: a local unix socket the shell forwards to the daemon's socket
// on the host (HostShell.direct; over SSH, the master's streamlocal forwarding), read like the
// stdio transport reads a bridge (NDJSON, then length-prefixed frames once agreed), with no
// process of ours in the byte path. The forward accepts a connection even when nothing answers on
// the host (the far end then closes it), so a link is handed over only after the daemon answered
// a probe: a request with no method the daemon serves, which it answers before initialize and
// which leaves the connection as new. Where the daemon's socket is comes from the bridge's
// `--locate` (host-setup.ts), run through the same checked command as the bridge.
import net from 'node:net';
import { ClientError, inboundMessageTooLarge } from '../client-error';
import { MAX_INBOUND_MESSAGE_BYTES, STDIO_KILL_GRACE_MS, STDIO_READ_BUFFER_BYTES } from '../constants';
import {
  STREAM_FRAME_DATA,
  STREAM_FRAME_TEXT,
  StreamDecoder,
  streamFramePrefix,
} from '../../../shared/protocol';
import type { Transport, TransportHandlers } from '../transports/transport-types';
import { startBridge, type StartBridgeOptions, type StartedBridge } from './host-bridge';
import type { HostSetup } from './host-setup';
import type { ForwardedSocket } from './host-shell';

/** The probe's id: answered (an error: no such method) by any daemon, before initialize too. */
const PROBE_ID = 'tether-direct-probe';
const PROBE_LINE = `${JSON.stringify({ id: PROBE_ID, method: 'tether/directProbe' })}\n`;
/** A probe answer is one short line; anything longer before a newline is not our daemon. */
const PROBE_ANSWER_MAX_BYTES = 64 * 1024;

/**
 * Runs the checked bridge command with --locate (preparing the host first if it says so) and
 * resolves the path of the daemon's socket it reached, starting the daemon unless `resume`.
 */
export async function locateDaemon(
  setup: HostSetup,
  resume: boolean,
  options: StartBridgeOptions,
  onSetup?: () => void,
): Promise<string> {
  const started = await startBridge(setup, resume, options, onSetup, true);
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    try {
      started.attach({
        onMessage: (message) => {
          if (settled) return;
          settled = true;
          started.close();
          try {
            const parsed = JSON.parse(message.toString()) as { daemonSocket?: unknown };
            if (typeof parsed.daemonSocket === 'string' && parsed.daemonSocket.startsWith('/')) {
              resolve(parsed.daemonSocket);
              return;
            }
          } catch {
            // Not the answer; said below.
          }
          reject(
            new ClientError('transport', `The bridge on ${setup.hostName} did not say where its daemon is.`),
          );
        },
        onActivity: () => undefined,
        onBroken: () => undefined,
        onClose: (error) => {
          if (settled) return;
          settled = true;
          reject(error);
        },
      });
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/**
 * Connects to the daemon through `forwarded` and resolves once the daemon answered the probe (the
 * link then starts from a fresh connection); null if nothing answered there (no daemon, or the
 * host refused to forward), within `timeoutMs`. The forward is the link's: closed with it.
 */
export async function openDirectLink(
  forwarded: ForwardedSocket,
  description: string,
  timeoutMs: number,
): Promise<StartedBridge | null> {
  let handlers: TransportHandlers | null = null;
  let probing = true;
  let probeSeen = Buffer.alloc(0);
  let settleProbe: (answered: boolean) => void = () => undefined;
  const probed = new Promise<boolean>((resolve) => (settleProbe = resolve));
  let ended: ClientError | null = null;
  let closedByUs = false;
  let reported = false;
  const held: Array<[Buffer, boolean]> = [];

  const readBuffer = Buffer.allocUnsafe(STDIO_READ_BUFFER_BYTES);
  const deliver = (message: Buffer, binary: boolean): void => {
    if (reported || closedByUs) return;
    if (handlers) handlers.onMessage(message, binary);
    else held.push([message, binary]);
  };
  const report = (error: ClientError): void => {
    if (reported || closedByUs) return;
    reported = true;
    if (handlers) handlers.onClose(error);
    else ended = error;
  };
  let socket: net.Socket | null = null;
  const decoder = new StreamDecoder(
    MAX_INBOUND_MESSAGE_BYTES,
    {
      message: (kind, bytes) =>
        deliver(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), kind === 'dataFrame'),
      lineTooLong: () => {
        report(inboundMessageTooLarge(`The daemon on ${description}`, MAX_INBOUND_MESSAGE_BYTES));
        socket?.destroy();
      },
      broken: (reason) => {
        if (!reported && !closedByUs) handlers?.onBroken(reason);
      },
    },
    (bytes) => Buffer.allocUnsafe(bytes),
    { chunksReused: true },
  );
  /** The probe's answer line is taken off the stream; what follows it is the link's. */
  const onProbeBytes = (chunk: Buffer): void => {
    probeSeen = Buffer.concat([probeSeen, chunk]);
    const end = probeSeen.indexOf(0x0a);
    if (end < 0) {
      if (probeSeen.length > PROBE_ANSWER_MAX_BYTES) settleProbe(false);
      return;
    }
    let answered = false;
    try {
      answered = (JSON.parse(probeSeen.subarray(0, end).toString()) as { id?: unknown }).id === PROBE_ID;
    } catch {
      answered = false;
    }
    const rest = probeSeen.subarray(end + 1);
    probing = false;
    probeSeen = Buffer.alloc(0);
    if (answered && rest.length > 0) decoder.push(Buffer.from(rest));
    settleProbe(answered);
  };

  const connected = net.connect({
    path: forwarded.localPath,
    onread: {
      buffer: () => (probing ? readBuffer : (decoder.readTarget() ?? readBuffer)),
      callback: (bytes, into) => {
        if (reported || closedByUs) return true;
        if (probing) onProbeBytes(Buffer.from(readBuffer.subarray(0, bytes)));
        else {
          handlers?.onActivity();
          if (into === readBuffer) decoder.push(readBuffer.subarray(0, bytes));
          else decoder.filledTarget(bytes);
        }
        return true;
      },
    },
  });
  socket = connected;
  connected.on('error', () => undefined);
  connected.once('close', () => {
    settleProbe(false);
    report(new ClientError('disconnected', `The direct link to the daemon on ${description} closed.`));
    forwarded.close();
  });
  connected.once('connect', () => connected.write(PROBE_LINE));
  const timer = setTimeout(() => settleProbe(false), timeoutMs);
  const answered = await probed;
  clearTimeout(timer);
  if (!answered) {
    closedByUs = true;
    connected.destroy();
    forwarded.close();
    return null;
  }

  let framing = false;
  const gone = (): ClientError =>
    new ClientError('disconnected', `The direct link to the daemon on ${description} is gone.`);
  // Messages of one event-loop turn leave in one writev, as the daemon sends its own: a message
  // split over two writes may cross the SSH connection as two packets, and the second then waits
  // for the first one's ACK (Nagle: neither end of a master without a tty sets TCP_NODELAY).
  let corked = false;
  const flush = (): void => {
    corked = false;
    connected.uncork();
  };
  const cork = (): void => {
    if (corked) return;
    corked = true;
    connected.cork();
    process.nextTick(flush);
  };
  const transport: Transport = {
    description: `direct socket to ${description}`,
    hasPings: false,
    send(text) {
      if (reported || closedByUs || !connected.writable) throw gone();
      cork();
      if (framing) {
        connected.write(streamFramePrefix(STREAM_FRAME_TEXT, Buffer.byteLength(text)));
        connected.write(text);
      } else connected.write(`${text}\n`);
    },
    sendDataFrame(frame, written) {
      if (reported || closedByUs || !connected.writable) throw gone();
      cork();
      connected.write(streamFramePrefix(STREAM_FRAME_DATA, frame.byteLength));
      connected.write(frame, (error) => {
        if (!error) written?.();
      });
    },
    useFrames() {
      framing = true;
      decoder.allowFrames();
    },
    ping() {
      return false;
    },
    close() {
      if (closedByUs) return;
      closedByUs = true;
      connected.end();
      setTimeout(() => connected.destroy(), STDIO_KILL_GRACE_MS).unref();
      forwarded.close();
    },
  };
  return {
    attach: (linkHandlers) => {
      if (ended) throw ended;
      handlers = linkHandlers;
      for (const [message, binary] of held.splice(0)) linkHandlers.onMessage(message, binary);
      return transport;
    },
    close: () => transport.close(),
  };
}
