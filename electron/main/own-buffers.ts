// Electron sends IPC payloads by structured clone, which copies a byte view's whole underlying
// buffer along with it, not just the bytes in view: an output chunk that is a view into a process
// log's slab would carry the whole slab to the renderer. Views into a larger buffer are copied out
// before sending; everything else is passed through untouched.

/** `value` with every Uint8Array that views only part of its buffer replaced by a copy of its bytes. */
export function ownBuffers<T>(value: T): T {
  return own(value) as T;
}

function own(value: unknown): unknown {
  if (value instanceof Uint8Array) {
    return value.byteOffset === 0 && value.byteLength === value.buffer.byteLength
      ? value
      : new Uint8Array(value);
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item = own(value[i]);
      if (item !== value[i]) (copy ??= value.slice())[i] = item;
    }
    return copy ?? value;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    let copy: Record<string, unknown> | null = null;
    for (const [key, field] of Object.entries(value)) {
      const item = own(field);
      if (item !== field) (copy ??= { ...(value as Record<string, unknown>) })[key] = item;
    }
    return copy ?? value;
  }
  return value;
}
