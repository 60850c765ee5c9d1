import { describe, expect, it } from 'vitest';
import { ownBuffers } from '../../../electron/main/own-buffers';

describe('ownBuffers', () => {
  it('copies a view into a larger buffer out, wherever it sits in the payload', () => {
    const slab = Uint8Array.from({ length: 64 }, (_, i) => i);
    const payload = [{ processId: 'p', events: [{ kind: 'output', seq: 1, data: slab.subarray(8, 12) }] }];
    const sent = ownBuffers(payload);
    const data = sent[0]!.events[0]!.data;
    expect(data.buffer.byteLength).toBe(4);
    expect([...data]).toEqual([8, 9, 10, 11]);
    // The caller's payload is left as it was.
    expect(payload[0]!.events[0]!.data.buffer).toBe(slab.buffer);
  });

  it('passes through what already owns its buffer, unchanged and uncopied', () => {
    const own = new Uint8Array(16);
    const payload = { ok: true, value: { events: [{ data: own }], lastSeq: 3 } };
    expect(ownBuffers(payload)).toBe(payload);
    expect(ownBuffers('text')).toBe('text');
    expect(ownBuffers(null)).toBe(null);
  });
});
