// Pipelined file transfers through a link with 40 ms RTT that is cut while several blocks are in
// flight, against both servers: downloads reach the consumer byte-exact and strictly in order,
// uploads land byte-exact, and every block the client ever wrote carried the source's bytes for
// its offset (nothing written at a wrong offset, whatever was written again after a cut).
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RemoteExecServerClient } from '../../electron/client/link/remote-client';
import { RemoteFileSystem, type RemoteFileSystemOps } from '../../electron/client/files/remote-file-system';
import { Method, TetherCapability } from '../../shared/protocol';
import type { ServerImpl } from '../support/exec-servers';
import type { FaultProxy } from '../support/fault-proxy';
import { chaosRig } from './rig';

const MiB = 1_048_576;
const SIZE = 20 * MiB + 12_345;
/** Cut when this many bytes have gone through, each time. */
const CUT_AT = [5 * MiB, 12 * MiB];
const ONE_WAY_DELAY_MS = 20;

/** The client's own fs calls, counted as they go: blocks in flight, and every block written. */
function observedFs(client: RemoteExecServerClient) {
  const seen = { inFlight: 0, maxInFlight: 0, writes: [] as Array<{ offset: number; sha: string }> };
  const ops: RemoteFileSystemOps = {
    hasCapability: (name) => client.hasCapability(name),
    callOnce: async (method, params) => {
      const block = method === Method.fsReadBlock || method === Method.fsWriteBlock;
      if (method === Method.fsWriteBlock) {
        // The file system hands the connection raw bytes (it sends them as base64 or binary frames).
        const { offset, chunk } = params as { offset: number; chunk: Uint8Array | string };
        seen.writes.push({
          offset,
          sha: sha(typeof chunk === 'string' ? Buffer.from(chunk, 'base64') : chunk),
        });
      }
      if (block) seen.maxInFlight = Math.max(seen.maxInFlight, ++seen.inFlight);
      try {
        return await client.callOnce(method, params);
      } finally {
        if (block) seen.inFlight--;
      }
    },
  };
  return { fs: new RemoteFileSystem(ops), seen };
}

function sha(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

describe.each<ServerImpl>(['tether', 'codex'])('pipelined transfers against %s, cut mid-way', (impl) => {
  const rig = chaosRig();

  async function setup(): Promise<{ proxy: FaultProxy; home: string; client: RemoteExecServerClient }> {
    const { server, proxy } = await rig.serve(impl);
    const client = rig.client(proxy);
    await client.connect();
    proxy.setLatency(ONE_WAY_DELAY_MS);
    return { proxy, home: server.home, client };
  }

  it('a download arrives byte-exact and in order through cuts with several blocks in flight', async () => {
    const { proxy, home, client } = await setup();
    const data = randomBytes(SIZE);
    const file = path.join(home, 'down.bin');
    writeFileSync(file, data);
    const { fs, seen } = observedFs(client);
    const received: Buffer[] = [];
    let got = 0;
    const inFlightAtCuts: number[] = [];
    await fs.readStream(file, (chunk, offset) => {
      expect(offset).toBe(got);
      received.push(Buffer.from(chunk));
      got += chunk.byteLength;
      if (inFlightAtCuts.length < CUT_AT.length && got >= CUT_AT[inFlightAtCuts.length]!) {
        inFlightAtCuts.push(seen.inFlight);
        proxy.cutAll();
      }
    });
    expect(Buffer.concat(received).equals(data)).toBe(true);
    expect(inFlightAtCuts).toHaveLength(CUT_AT.length);
    // A cut lands with several reads outstanding (on a loaded machine, not every one of them does:
    // replies can all be back by the time the consumer sees a chunk).
    expect(Math.max(...inFlightAtCuts)).toBeGreaterThanOrEqual(2);
    expect(client.health().reconnectCount).toBeGreaterThanOrEqual(CUT_AT.length);
  });

  it('an upload lands byte-exact through cuts, every block written at its own offset', async () => {
    const { proxy, home, client } = await setup();
    const data = randomBytes(SIZE);
    const file = path.join(home, 'up.bin');
    const { fs, seen } = observedFs(client);
    const inFlightAtCuts: number[] = [];
    let passes = 0;
    const resumable = client.hasCapability(TetherCapability.fsUpdate);
    /**
     * The source in 1 MiB pieces, cutting the link at the next CUT_AT as it goes. A pass that
     * must start over still reads ahead by up to a window before it notices, so where the server
     * cannot resume, each pass cuts at most once (else two cuts could land in one pass).
     */
    async function* source(): AsyncIterable<Uint8Array> {
      passes++;
      for (let at = 0; at < data.length; at += MiB) {
        const cutsDue = resumable || inFlightAtCuts.length < passes;
        if (cutsDue && inFlightAtCuts.length < CUT_AT.length && at >= CUT_AT[inFlightAtCuts.length]!) {
          inFlightAtCuts.push(seen.inFlight);
          proxy.cutAll();
        }
        yield data.subarray(at, at + MiB);
      }
    }
    const written = await fs.writeStream(file, source(), resumable ? {} : { rewind: source });
    expect(written.bytes).toBe(data.length);
    expect(readFileSync(file).equals(data)).toBe(true);
    expect(Math.min(...inFlightAtCuts)).toBeGreaterThanOrEqual(2);
    // Tether's server continues in place; codex's can only be written again from byte 0.
    expect(passes).toBe(resumable ? 1 : CUT_AT.length + 1);
    for (const write of seen.writes) {
      const expected = sha(data.subarray(write.offset, write.offset + MiB));
      expect(write.sha, `the block written at ${write.offset}`).toBe(expected);
    }
    expect(seen.maxInFlight).toBeGreaterThanOrEqual(3);
  });
});
