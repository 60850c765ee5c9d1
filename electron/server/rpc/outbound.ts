// What the server sends, and how each message is put on the wire for the connection it goes out on:
// JSON text with base64 byte fields (codex's protocol), or, once a connection has negotiated
// `tetherBinaryFrames`, a binary data frame whose byte fields travel raw. Messages with bytes are
// kept as values until then, since a session's next connection may speak the other form.
import {
  encodeDataFrame,
  Notification,
  payloadRefJson,
  stringifyWithBytes,
  writeDataFrame,
  type OutputStream,
} from '../../../shared/protocol';
import { encodeResult, encodeResultFrame, toBase64 } from './envelope';
import { acquireMessageBuffer, releaseMessage } from './message-pool';

/** One chunk of a process's output, as `process/output` carries it. */
export interface ProcessOutputMessage {
  kind: 'processOutput';
  /** The process id as JSON text. */
  processIdJson: string;
  seq: number;
  stream: OutputStream;
  data: Buffer;
}

/** A request's successful result; byte fields are Uint8Arrays. */
export interface ResultMessage {
  kind: 'result';
  idJson: string;
  result: unknown;
}

/** A chunk of a TCP stream, as `stream/data` carries it (the hot path of port forwarding). */
export interface StreamDataMessage {
  kind: 'streamData';
  /** The stream id as JSON text. */
  streamIdJson: string;
  data: Buffer;
}

/** A notification whose params may hold byte fields (Uint8Arrays), such as `stream/data`. */
export interface NotificationMessage {
  kind: 'notification';
  method: string;
  params: Record<string, unknown>;
}

/** Ready JSON text (Buffers hold UTF-8 JSON from the message pool), or a value to encode. */
export type OutboundMessage =
  string | Buffer | ProcessOutputMessage | ResultMessage | NotificationMessage | StreamDataMessage;

/** A message ready for the transport: a text frame, or a binary data frame. */
export type WireMessage = { text: string | Buffer } | { dataFrame: Buffer };

// `process/output` is spelled out as JSON text, not stringified objects: it is the hot path.
const OUTPUT_HEAD = `{"method":"${Notification.processOutput}","params":{"processId":`;
const STREAM_DATA_HEAD = `{"method":"${Notification.streamData}","params":{"streamId":`;
const OUTPUT_TAIL = '"}}';
const OUTPUT_FRAME_TAIL = '}}';

/** A message that will not be sent after all: pooled JSON text goes back to the pool. */
export function dropOutbound(message: OutboundMessage): void {
  if (typeof message === 'string' || Buffer.isBuffer(message)) releaseMessage(message);
}

export function toWire(message: OutboundMessage, binaryFrames: boolean): WireMessage {
  if (typeof message === 'string' || Buffer.isBuffer(message)) return { text: message };
  if (message.kind === 'result') {
    return binaryFrames
      ? encodeResultFrame(message.idJson, message.result)
      : { text: encodeResult(message.idJson, message.result) };
  }
  if (message.kind === 'notification') {
    const body = { method: message.method, params: message.params };
    const frame = binaryFrames ? encodeDataFrame(body, (bytes) => Buffer.allocUnsafe(bytes)) : null;
    return frame ? { dataFrame: frame as Buffer } : { text: stringifyWithBytes(body, toBase64) };
  }
  const head =
    message.kind === 'streamData'
      ? `${STREAM_DATA_HEAD}${message.streamIdJson},"data":`
      : outputHead(message);
  return binaryFrames
    ? { dataFrame: bytesFrame(head, message.data) }
    : { text: bytesJson(head, message.data) };
}

function outputHead(message: ProcessOutputMessage): string {
  return `${OUTPUT_HEAD}${message.processIdJson},"seq":${message.seq},"stream":"${message.stream}","chunk":`;
}

/**
 * A notification whose last member is its bytes (`process/output`, `stream/data`), its JSON built
 * straight into one pooled buffer: base64 is most of it. `head` ends with that member's name.
 */
function bytesJson(head: string, data: Buffer): Buffer {
  const opened = `${head}"`;
  const base64 = data.toString('base64');
  const headBytes = Buffer.byteLength(opened);
  const text = acquireMessageBuffer(headBytes + base64.length + OUTPUT_TAIL.length);
  text.write(opened, 0, 'utf8');
  text.write(base64, headBytes, 'latin1');
  text.write(OUTPUT_TAIL, headBytes + base64.length, 'latin1');
  return text;
}

/** The same notification as a data frame, in one pooled buffer. */
function bytesFrame(head: string, data: Buffer): Buffer {
  const header = `${head}${payloadRefJson(0, data.length)}${OUTPUT_FRAME_TAIL}`;
  return writeDataFrame(header, [data], acquireMessageBuffer) as Buffer;
}
