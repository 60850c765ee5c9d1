// Turns one inbound frame into a JSON value. A `process/output` frame is almost all base64, and
// decoding it as UTF-8 and then scanning it with JSON.parse was about half of the client's CPU under
// bulk output; so for such frames only the short envelope is parsed and the chunk is sliced from the
// frame's bytes (base64 is ASCII). A frame not in exactly that shape, or whose chunk holds an escape
// or a byte outside ASCII, takes the generic path: the result is what JSON.parse of the text gives.
// Binary data frames (tetherBinaryFrames) carry their bytes raw; byte fields are then Uint8Arrays,
// and the helpers at the end turn either form into bytes.
import { isAscii } from 'node:buffer';
import {
  checkJsonLimits,
  resolvePayloadRefs,
  splitDataFrame,
  type CodecResult,
  type WireBytes,
} from '../../../shared/protocol';
import { errorMessage } from '../../../shared/error-message';

const OUTPUT_PREFIX = Buffer.from('{"method":"process/output","params":{');
const CHUNK_KEY = Buffer.from('"chunk":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Below this the generic path costs about the same, so the extra checks are not worth it. */
const FAST_PATH_MIN_BYTES = 1024;

/**
 * Parses `frame`; throws SyntaxError like JSON.parse when it is not JSON, and a
 * JsonLimitError when it holds more values or deeper nesting than the protocol allows.
 */
export function parseFrame(frame: Buffer | string): unknown {
  const value =
    typeof frame === 'string'
      ? JSON.parse(frame)
      : (parseOutputFrame(frame) ?? JSON.parse(frame.toString('utf8')));
  const limit = checkJsonLimits(value);
  if (limit) throw new JsonLimitError(limit);
  return value;
}

/** A frame that parsed as JSON but exceeds MAX_JSON_DEPTH or MAX_JSON_VALUES. */
export class JsonLimitError extends Error {
  override readonly name = 'JsonLimitError';
}

/** The text of a frame, for error messages. */
export function frameText(frame: Buffer | string): string {
  return typeof frame === 'string' ? frame : frame.toString('utf8');
}

function parseOutputFrame(frame: Buffer): unknown {
  if (frame.length < FAST_PATH_MIN_BYTES) return undefined;
  if (frame.compare(OUTPUT_PREFIX, 0, OUTPUT_PREFIX.length, 0, OUTPUT_PREFIX.length) !== 0) return undefined;
  const key = frame.indexOf(CHUNK_KEY, OUTPUT_PREFIX.length);
  if (key < 0) return undefined;
  const start = key + CHUNK_KEY.length;
  const end = frame.indexOf(QUOTE, start);
  if (end < 0) return undefined;
  // An escape inside the string (which base64 never needs) would make the raw bytes differ from
  // the decoded string: leave that to JSON.parse.
  const escape = frame.indexOf(BACKSLASH, start);
  if (escape !== -1 && escape < end) return undefined;
  if (!isAscii(frame.subarray(start, end))) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(frame.toString('utf8', 0, start) + frame.toString('utf8', end));
  } catch {
    return undefined;
  }
  const params = (message as { params?: unknown }).params;
  if (params === null || typeof params !== 'object' || (params as { chunk?: unknown }).chunk !== '') {
    return undefined;
  }
  (params as { chunk: string }).chunk = frame.toString('latin1', start, end);
  return message;
}

/** Parses a binary data frame: its JSON header, with payload references replaced by the bytes. */
export function parseDataFrame(frame: Buffer): CodecResult<unknown> {
  const split = splitDataFrame(frame);
  if (!split.ok) return split;
  let header: unknown;
  try {
    header = JSON.parse(split.value.headerText);
  } catch (error) {
    return { ok: false, reason: `its header is not JSON (${errorMessage(error)})` };
  }
  // The same bounds the server applies, before anything walks the header.
  const limit = checkJsonLimits(header);
  if (limit) return { ok: false, reason: `its header is refused: ${limit}` };
  return resolvePayloadRefs(header, split.value.payload);
}

/** The bytes of a byte field: base64 text from JSON, or raw bytes from a data frame (not copied). */
export function wireBytesToBuffer(field: WireBytes): Buffer {
  return typeof field === 'string'
    ? Buffer.from(field, 'base64')
    : Buffer.from(field.buffer, field.byteOffset, field.byteLength);
}

/** How many bytes a byte field holds (for base64, close enough for a bound). */
export function wireByteLength(field: WireBytes): number {
  return typeof field === 'string' ? Math.floor((field.length * 3) / 4) : field.byteLength;
}
