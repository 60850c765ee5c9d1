// The framing of the IPC contract over the web host's WebSocket: invoke → result, and events.
// Both the web host and the browser-side bridge use these schemas and names, and the one codec
// (encodeWebMessage / decodeWebMessage) that carries the contract's bytes as binary messages.
import { z } from 'zod';
import { IpcErrorPayload } from './bridge';

// Everything the web host serves lives under one per-launch path scope (`/<random>/`), so the names
// below are relative to it.
/** The WebSocket endpoint, next to the page. */
export const WEB_SOCKET_NAME = 'ipc';
/** Query parameter of the printed URL carrying the per-launch token; traded for a cookie at once. */
export const WEB_TOKEN_PARAM = 'token';
/** Query parameter carrying a one-time login code (the browser opener's URL). */
export const WEB_CODE_PARAM = 'code';
/** Prefix of one-time download URLs, after the scope. */
export const WEB_DOWNLOAD_NAME = 'download/';

export const WebInvokeMessage = z.object({
  type: z.literal('invoke'),
  id: z.number().int().nonnegative(),
  name: z.string().max(200),
  input: z.unknown(),
});
export type WebInvokeMessage = z.infer<typeof WebInvokeMessage>;

const WebResultMessage = z.union([
  z.object({ type: z.literal('result'), id: z.number().int(), ok: z.literal(true), output: z.unknown() }),
  z.object({
    type: z.literal('result'),
    /** -1 when the request's id could not be read. */
    id: z.number().int(),
    ok: z.literal(false),
    error: IpcErrorPayload,
  }),
]);
export type WebResultMessage = z.infer<typeof WebResultMessage>;

const WebEventMessage = z.object({ type: z.literal('event'), name: z.string(), payload: z.unknown() });
export type WebEventMessage = z.infer<typeof WebEventMessage>;

// Events first: zod tries the options in order, and an event (most messages) failing both result
// forms first had its issues built and formatted each time.
export const WebServerMessage = z.union([WebEventMessage, WebResultMessage]);
export type WebServerMessage = z.infer<typeof WebServerMessage>;

/**
 * The WebSocket URL for the page the app was loaded from: same host, same path scope, and no
 * credential (the browser's cookie, or a client's `Authorization` header, carries it).
 */
export function webSocketUrlFor(page: { protocol: string; host: string; pathname: string }): string {
  const scheme = page.protocol === 'https:' ? 'wss:' : 'ws:';
  const folder = page.pathname.slice(0, page.pathname.lastIndexOf('/') + 1) || '/';
  return `${scheme}//${page.host}${folder}${WEB_SOCKET_NAME}`;
}

/**
 * A message holding bytes (process output, typed input) goes as one binary WebSocket message, the
 * bytes raw, never as base64:
 *
 *   u32 (big-endian) n · n bytes of UTF-8 JSON · the byte fields, back to back
 *
 * In the JSON each Uint8Array is replaced by `{"\u0000bytes": [offset, length]}` into the tail. A
 * message without bytes stays a JSON text message. The placeholder's key starts with NUL, which no
 * name of the contract has, and its value is a pair of numbers, which no string record can hold.
 */
const BYTES_KEY = '\u0000bytes';
const HEADER_LENGTH_BYTES = 4;

export function encodeWebMessage(message: unknown): string | Uint8Array {
  const parts: Uint8Array[] = [];
  let tail = 0;
  // The holder's own value, not `value`: a Buffer's toJSON has already turned that into an array.
  const json = JSON.stringify(message, function (this: Record<string, unknown>, key, value: unknown) {
    const original = this[key];
    if (!(original instanceof Uint8Array)) return value;
    parts.push(original);
    const placeholder = { [BYTES_KEY]: [tail, original.byteLength] };
    tail += original.byteLength;
    return placeholder;
  });
  if (parts.length === 0) return json;
  const header = new TextEncoder().encode(json);
  const out = new Uint8Array(HEADER_LENGTH_BYTES + header.byteLength + tail);
  new DataView(out.buffer).setUint32(0, header.byteLength);
  out.set(header, HEADER_LENGTH_BYTES);
  let offset = HEADER_LENGTH_BYTES + header.byteLength;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/**
 * The message in a text or binary WebSocket message; throws on malformed input. A binary message's
 * byte fields come out as views into `data` (no copy).
 */
export function decodeWebMessage(data: string | Uint8Array): unknown {
  if (typeof data === 'string') return JSON.parse(data);
  if (data.byteLength < HEADER_LENGTH_BYTES) throw new Error('binary message shorter than its header');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const headerEnd = HEADER_LENGTH_BYTES + view.getUint32(0);
  if (headerEnd > data.byteLength) throw new Error('binary message header runs past its end');
  const tail = data.subarray(headerEnd);
  const json = new TextDecoder().decode(data.subarray(HEADER_LENGTH_BYTES, headerEnd));
  return JSON.parse(json, (_key, value: unknown) => {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, BYTES_KEY)) return value;
    const span = (value as Record<string, unknown>)[BYTES_KEY];
    if (
      Object.keys(value).length !== 1 ||
      !Array.isArray(span) ||
      span.length !== 2 ||
      !span.every((n) => Number.isSafeInteger(n) && (n as number) >= 0) ||
      (span[0] as number) + (span[1] as number) > tail.byteLength
    )
      throw new Error('binary message has a malformed byte field');
    return tail.subarray(span[0] as number, (span[0] as number) + (span[1] as number));
  });
}
