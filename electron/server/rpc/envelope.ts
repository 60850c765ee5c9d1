// Decodes one inbound JSON-RPC message (codex's dialect: no "jsonrpc" needed, i64 or string ids
// echoed exactly, limits on depth and value count), from JSON text or from a Tether data frame, and
// encodes outbound results as JSON text (byte fields as base64) or as a data frame.
import { isUtf8 } from 'node:buffer';
import {
  checkJsonLimits,
  resolvePayloadRefs,
  splitDataFrame,
  stringifyWithBytes,
  stringifyWithPayloads,
  writeDataFrame,
} from '../../../shared/protocol';
import { errorMessage } from '../../../shared/error-message';
import { blockFrame } from './message-pool';

export type DecodedMessage =
  /** `idJson` is the id exactly as it must be echoed (JSON text). */
  | { kind: 'request'; idJson: string; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'response' }
  /** `idJson` is set when the message was a request whose id could still be read. */
  | { kind: 'invalid'; reason: string; idJson?: string };

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** Decodes a message received as bytes (binary frames, stdio lines). */
export function decodeBytes(bytes: Buffer): DecodedMessage {
  if (!isUtf8(bytes)) return { kind: 'invalid', reason: 'invalid UTF-8 in message' };
  return decodeText(bytes.toString('utf8'));
}

/**
 * Decodes a binary data frame (only once `tetherBinaryFrames` is negotiated): its header goes
 * through the same checks as JSON text, then its payload references become the bytes they name.
 */
export function decodeDataFrame(frame: Buffer): DecodedMessage {
  const split = splitDataFrame(frame);
  if (!split.ok) return { kind: 'invalid', reason: `malformed data frame: ${split.reason}` };
  const message = decodeText(split.value.headerText);
  if (message.kind === 'invalid')
    return { kind: 'invalid', reason: `malformed data frame header: ${message.reason}` };
  if (message.kind !== 'request' && message.kind !== 'notification') return message;
  const params = resolvePayloadRefs(message.params, split.value.payload);
  if (!params.ok) {
    const reason = `malformed data frame: ${params.reason}`;
    return message.kind === 'request'
      ? { kind: 'invalid', reason, idJson: message.idJson }
      : { kind: 'invalid', reason };
  }
  return { ...message, params: params.value };
}

export function decodeText(text: string): DecodedMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', reason: errorMessage(error) };
  }
  const limit = checkJsonLimits(value);
  if (limit) return { kind: 'invalid', reason: limit };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { kind: 'invalid', reason: 'expected a JSON-RPC object' };
  }
  const message = value as Record<string, unknown>;
  const hasId = Object.prototype.hasOwnProperty.call(message, 'id');
  if (typeof message.method === 'string') {
    if (!hasId) return { kind: 'notification', method: message.method, params: message.params };
    const idJson = encodeId(message.id, text);
    if (idJson === undefined) {
      return { kind: 'invalid', reason: 'invalid request id: expected an i64 integer or a string' };
    }
    return { kind: 'request', idJson, method: message.method, params: message.params };
  }
  if ('result' in message || 'error' in message) return { kind: 'response' };
  return { kind: 'invalid', reason: 'data did not match any variant of JSON-RPC message' };
}

function encodeId(id: unknown, text: string): string | undefined {
  if (typeof id === 'string') return JSON.stringify(id);
  if (typeof id !== 'number') return undefined;
  // JSON.parse rounds large integers and hides `1.0`, so judge the id by its source text.
  const raw = rawTopLevelId(text);
  if (raw === undefined || !/^-?(0|[1-9][0-9]*)$/.test(raw)) return undefined;
  const big = BigInt(raw);
  return big < I64_MIN || big > I64_MAX ? undefined : raw;
}

/** Raw source text of the last top-level `id` member of a JSON object, or undefined. */
export function rawTopLevelId(text: string): string | undefined {
  let i = skipWs(text, 0);
  if (text[i] !== '{') return undefined;
  i = skipWs(text, i + 1);
  let found: string | undefined;
  while (i < text.length && text[i] !== '}') {
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWs(text, keyEnd);
    i = skipWs(text, i + 1); // ':'
    const valueEnd = skipValue(text, i);
    if (key === 'id') found = text.slice(i, valueEnd).trim();
    i = skipWs(text, valueEnd);
    if (text[i] === ',') i = skipWs(text, i + 1);
  }
  return found;
}

function skipWs(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/** Index just past the string literal starting at `i` (a quote). */
function skipString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) return text.length;
    let backslashes = 0;
    for (let k = q - 1; text.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    let j = i;
    while (j < text.length) {
      const ch = text[j];
      if (ch === '"') {
        j = skipString(text, j);
        continue;
      }
      if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return j;
  }
  let j = i;
  while (j < text.length && text[j] !== ',' && text[j] !== '}') j++;
  return j;
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** A result as JSON text; its byte fields (Uint8Arrays) become base64, as codex sends them. */
export function encodeResult(idJson: string, result: unknown): string {
  return `{"id":${idJson},"result":${stringifyWithBytes(result, toBase64)}}`;
}

/**
 * A result for a connection with binary frames: a data frame when it has byte fields, else JSON
 * text. One serialisation either way: without byte fields the frame's header is that very text.
 */
export function encodeResultFrame(idJson: string, result: unknown): { text: string } | { dataFrame: Buffer } {
  const { text, payloads } = stringifyWithPayloads(result);
  const message = `{"id":${idJson},"result":${text}}`;
  if (payloads.length === 0) return { text: message };
  // A file block read into a pooled buffer is framed where it lies, without a copy.
  const around = payloads.length === 1 ? blockFrame(message, payloads[0]!) : null;
  if (around) return { dataFrame: around };
  return {
    dataFrame: writeDataFrame(message, payloads, (bytes) => Buffer.allocUnsafe(bytes)) as Buffer,
  };
}

export function encodeError(idJson: string, code: number, message: string, data?: unknown): string {
  const error = data === undefined ? { code, message } : { code, data, message };
  return `{"error":${JSON.stringify(error)},"id":${idJson}}`;
}
