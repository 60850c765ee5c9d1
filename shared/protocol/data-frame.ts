// Tether's binary data frames (capability `tetherBinaryFrames`): one WebSocket binary message that
// carries one JSON-RPC message whose byte fields travel raw instead of as base64. Pure codec, used
// by both the server and the client; which messages use it, and when, is decided by the caller.
//
// Layout (all of it one WebSocket message, so it stays ordered with every other message):
//   byte 0      0xB7, a UTF-8 continuation byte: no JSON text can start with it, so a data frame is
//               never mistaken for the binary JSON frames codex accepts
//   byte 1      format version (1)
//   bytes 2..5  header length H, unsigned 32-bit big-endian
//   H bytes     the JSON-RPC message as UTF-8 JSON, each byte field replaced by
//               {"payloadRef":[offset,length]} (offset into the payload section)
//   the rest    the payload section: the referenced bytes, which together must cover it exactly

export const DATA_FRAME_MAGIC = 0xb7;
export const DATA_FRAME_VERSION = 1;
/** Magic, version and header length. */
export const DATA_FRAME_PREFIX_BYTES = 6;
/** The member name of a reference to payload bytes in the header. */
export const PAYLOAD_REF_KEY = 'payloadRef';

export type CodecResult<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface SplitDataFrame {
  headerText: string;
  payload: Uint8Array;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/** Whether `frame` claims to be a data frame (it may still be malformed). */
export function isDataFrame(frame: Uint8Array): boolean {
  return frame.length > 0 && frame[0] === DATA_FRAME_MAGIC;
}

/** Separates a data frame into its JSON header text and its payload section. */
export function splitDataFrame(frame: Uint8Array): CodecResult<SplitDataFrame> {
  if (!isDataFrame(frame)) return { ok: false, reason: 'not a data frame (wrong first byte)' };
  if (frame.length < DATA_FRAME_PREFIX_BYTES) {
    return { ok: false, reason: `truncated data frame: ${frame.length} bytes, the prefix alone is 6` };
  }
  if (frame[1] !== DATA_FRAME_VERSION) {
    return { ok: false, reason: `unsupported data frame version ${frame[1]} (this side speaks 1)` };
  }
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const headerBytes = view.getUint32(2, false);
  const headerEnd = DATA_FRAME_PREFIX_BYTES + headerBytes;
  if (headerEnd > frame.length) {
    return {
      ok: false,
      reason: `truncated data frame: the header claims ${headerBytes} bytes, ${frame.length - DATA_FRAME_PREFIX_BYTES} follow`,
    };
  }
  let headerText: string;
  try {
    headerText = utf8Decoder.decode(frame.subarray(DATA_FRAME_PREFIX_BYTES, headerEnd));
  } catch {
    return { ok: false, reason: 'invalid UTF-8 in the data frame header' };
  }
  return { ok: true, value: { headerText, payload: frame.subarray(headerEnd) } };
}

/**
 * Replaces every `{"payloadRef":[offset,length]}` in `value` (parsed from the header) by a view of
 * those payload bytes, in place. The references must cover the payload exactly, without overlap:
 * bytes nobody refers to, or a reference past the end, mean the frame was built wrongly.
 */
export function resolvePayloadRefs(value: unknown, payload: Uint8Array): CodecResult<unknown> {
  const refs: Array<{ offset: number; length: number }> = [];
  // A loop over an explicit stack, not recursion: the header came from the peer, and its depth
  // must never reach the call stack (callers bound it with checkJsonLimits first as well).
  const resolve = (node: unknown): CodecResult<unknown> | null => {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return null;
    const record = node as Record<string, unknown>;
    if (!Object.prototype.hasOwnProperty.call(record, PAYLOAD_REF_KEY)) return null;
    const ref = parseRef(record, payload.length);
    if (!ref.ok) return ref;
    refs.push(ref.value);
    return { ok: true, value: payload.subarray(ref.value.offset, ref.value.offset + ref.value.length) };
  };
  const root = resolve(value);
  if (root !== null) {
    if (!root.ok) return root;
  } else {
    const stack: unknown[] = [value];
    while (stack.length > 0) {
      const node = stack.pop();
      if (node === null || typeof node !== 'object') continue;
      const holder = node as Record<string, unknown>;
      for (const key of Array.isArray(node) ? node.keys() : Object.keys(holder)) {
        const child = holder[key];
        const resolved = resolve(child);
        if (resolved === null) stack.push(child);
        else if (!resolved.ok) return resolved;
        else holder[key] = resolved.value;
      }
    }
  }
  const resolved: CodecResult<unknown> = { ok: true, value: root?.ok ? root.value : value };
  // By offset, empty references first: the walk order is not the document order.
  refs.sort((a, b) => a.offset - b.offset || a.length - b.length);
  let covered = 0;
  for (const ref of refs) {
    if (ref.offset !== covered) {
      return {
        ok: false,
        reason:
          ref.offset < covered
            ? `payload references overlap at byte ${ref.offset}`
            : `payload bytes ${covered}..${ref.offset} are referenced by nothing`,
      };
    }
    covered += ref.length;
  }
  if (covered !== payload.length) {
    return {
      ok: false,
      reason: `payload of ${payload.length} bytes, but the header refers to ${covered}`,
    };
  }
  return resolved;
}

function parseRef(
  record: Record<string, unknown>,
  payloadBytes: number,
): CodecResult<{ offset: number; length: number }> {
  const ref = record[PAYLOAD_REF_KEY];
  if (
    Object.keys(record).length !== 1 ||
    !Array.isArray(ref) ||
    ref.length !== 2 ||
    !ref.every((n) => Number.isSafeInteger(n) && (n as number) >= 0)
  ) {
    return { ok: false, reason: `malformed payload reference ${JSON.stringify(record)}` };
  }
  const [offset, length] = ref as [number, number];
  if (offset + length > payloadBytes) {
    return {
      ok: false,
      reason: `payload reference [${offset},${length}] is past the end of the ${payloadBytes}-byte payload`,
    };
  }
  return { ok: true, value: { offset, length } };
}

/** The header text that stands for `length` payload bytes at `offset`. */
export function payloadRefJson(offset: number, length: number): string {
  return `{"${PAYLOAD_REF_KEY}":[${offset},${length}]}`;
}

/**
 * JSON text of `value` with every Uint8Array in it replaced by what `onBytes` returns for it: the
 * one place where byte fields meet JSON, whether they become base64 or payload references.
 */
export function stringifyWithBytes(value: unknown, onBytes: (bytes: Uint8Array) => unknown): string {
  // Byte fields are swapped out before JSON.stringify sees them: a replacer would come too late,
  // after a Buffer's toJSON had spelled out every byte as an array element (the cost of a chunk
  // was dominated by that), and it would take the whole message off JSON.stringify's fast path.
  return JSON.stringify(replaceBytes(value, onBytes) ?? {});
}

/**
 * `value` with each Uint8Array replaced by `onBytes(it)`, copying only the objects and arrays on
 * the way to one (a message without bytes comes back as it is). Object keys are visited in the
 * order JSON.stringify writes them, so payload references are numbered in text order.
 */
function replaceBytes(value: unknown, onBytes: (bytes: Uint8Array) => unknown): unknown {
  if (value instanceof Uint8Array) return onBytes(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const replaced = replaceBytes(item, onBytes);
      if (replaced !== item) (copy ??= value.slice())[i] = replaced;
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | null = null;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    const replaced = replaceBytes(item, onBytes);
    if (replaced !== item) (copy ??= { ...record })[key] = replaced;
  }
  return copy ?? value;
}

/** Assembles a data frame from header text and the payloads it refers to, in reference order. */
export function writeDataFrame(
  headerText: string,
  payloads: readonly Uint8Array[],
  allocate: (bytes: number) => Uint8Array = (bytes) => new Uint8Array(bytes),
): Uint8Array {
  const header = utf8Encoder.encode(headerText);
  let total = DATA_FRAME_PREFIX_BYTES + header.length;
  for (const payload of payloads) total += payload.length;
  const frame = allocate(total);
  frame[0] = DATA_FRAME_MAGIC;
  frame[1] = DATA_FRAME_VERSION;
  new DataView(frame.buffer, frame.byteOffset, frame.byteLength).setUint32(2, header.length, false);
  frame.set(header, DATA_FRAME_PREFIX_BYTES);
  let at = DATA_FRAME_PREFIX_BYTES + header.length;
  for (const payload of payloads) {
    frame.set(payload, at);
    at += payload.length;
  }
  return frame;
}

/**
 * A data frame of one payload built around it: the prefix and header are written into the bytes
 * right before `payload` in its own buffer, so a block of file bytes is framed without a copy.
 * The caller vouches that the `room` bytes before the payload are its to overwrite. Null when
 * the header does not fit in them.
 */
export function dataFrameAround(headerText: string, payload: Uint8Array, room: number): Uint8Array | null {
  const headerBytes = utf8Encoder.encode(headerText);
  const start = payload.byteOffset - DATA_FRAME_PREFIX_BYTES - headerBytes.length;
  if (DATA_FRAME_PREFIX_BYTES + headerBytes.length > room || start < 0) return null;
  const frame = new Uint8Array(
    payload.buffer,
    start,
    DATA_FRAME_PREFIX_BYTES + headerBytes.length + payload.length,
  );
  frame[0] = DATA_FRAME_MAGIC;
  frame[1] = DATA_FRAME_VERSION;
  new DataView(frame.buffer, frame.byteOffset, frame.byteLength).setUint32(2, headerBytes.length, false);
  frame.set(headerBytes, DATA_FRAME_PREFIX_BYTES);
  return frame;
}

/** JSON text of `value` with its Uint8Arrays replaced by payload references, and those payloads. */
export function stringifyWithPayloads(value: unknown): { text: string; payloads: Uint8Array[] } {
  const payloads: Uint8Array[] = [];
  let offset = 0;
  const text = stringifyWithBytes(value, (bytes) => {
    payloads.push(bytes);
    const ref = { [PAYLOAD_REF_KEY]: [offset, bytes.length] };
    offset += bytes.length;
    return ref;
  });
  return { text, payloads };
}

/**
 * `message` as a data frame whose Uint8Array fields are payload, or null when it has none (it is
 * then sent as ordinary JSON text).
 */
export function encodeDataFrame(
  message: unknown,
  allocate?: (bytes: number) => Uint8Array,
): Uint8Array | null {
  const { text, payloads } = stringifyWithPayloads(message);
  return payloads.length === 0 ? null : writeDataFrame(text, payloads, allocate);
}
