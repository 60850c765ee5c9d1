// Conformance scenarios for output retention: 1 MiB of chunk bytes and 50,000 chunks per process,
// oldest evicted first, silently. Retention does not depend on the transport, so they run on ws only.
import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import { PROCESS_WAIT_MS, type Scenario } from './scenario-kit';

const RETAINED_BYTES = 1_048_576;
const RETAINED_CHUNKS = 50_000;
/** Writes the child makes in the chunk-count scenario, each paced to become its own chunk. */
const SMALL_WRITES = 53_000;
/**
 * Writes 8 bytes, then spins until the server has read them (FIONREAD for a pipe, TIOCOUTQ for the
 * socketpair Node uses as a "pipe"), so that nearly every write is read as a separate chunk.
 */
const PACED_WRITER = `for (1..${SMALL_WRITES}) { syswrite(STDOUT, "chunk..\\n"); while (1) { my ($a, $b) = (pack("L", 0), pack("L", 0)); ioctl(STDOUT, 0x541B, $a); ioctl(STDOUT, 0x5411, $b); last if unpack("L", $a) == 0 && unpack("L", $b) == 0; } }`;

interface Chunk {
  seq: number;
  chunk: string;
}

/** Checks that seqs ascend and returns the concatenated bytes. */
function joinChunks(chunks: Chunk[]): Buffer {
  chunks.forEach((c, i) => {
    if (i > 0 && c.seq <= (chunks[i - 1] as Chunk).seq) throw new Error(`seq ${c.seq} out of order`);
  });
  return Buffer.concat(chunks.map((c) => Buffer.from(c.chunk, 'base64')));
}

export const retentionScenarios: Scenario[] = [
  {
    name: 'retention: after 3 MiB of output only the last 1 MiB is retained',
    transports: ['ws'],
    run: async (ctx) => {
      const { peer } = await ctx.session();
      const expected = execFileSync('/usr/bin/seq', ['1', '480000'], { maxBuffer: 16 * RETAINED_BYTES });
      await peer.call('process/start', {
        ...base(ctx.uri()),
        processId: 'big',
        argv: ['/usr/bin/seq', '1', '480000'],
      });
      await peer.notification('process/closed', (p) => p.processId === 'big', PROCESS_WAIT_MS);
      const read = (await peer.call('process/read', { processId: 'big', afterSeq: 0 })) as {
        chunks: Chunk[];
        nextSeq: number;
      };
      const live = peer.notifications('process/output').length;
      const retained = joinChunks(read.chunks);
      const largest = Math.max(...read.chunks.map((c) => Buffer.from(c.chunk, 'base64').length));
      ctx.record('output was larger than the cap', expected.length > 3 * RETAINED_BYTES);
      ctx.record('every chunk was pushed live', live === read.nextSeq - 3);
      ctx.record('retained at most 1 MiB', retained.length <= RETAINED_BYTES);
      ctx.record('retained all but less than one chunk of 1 MiB', retained.length > RETAINED_BYTES - largest);
      ctx.record(
        'retained bytes are the tail of the output',
        retained.equals(expected.subarray(expected.length - retained.length)),
      );
      ctx.record('oldest chunks evicted', (read.chunks[0] as Chunk).seq > 1);
      const lastOutput = Math.max(...peer.notifications('process/output').map((n) => Number(n.params.seq)));
      ctx.record('last retained chunk is the last output', (read.chunks.at(-1) as Chunk).seq === lastOutput);
    },
  },
  {
    name: 'retention: of more than 50,000 small chunks only the last 50,000 are retained',
    transports: ['ws'],
    timeoutMs: 90_000,
    differs: 'output-chunking',
    run: async (ctx) => {
      const { peer } = await ctx.session();
      await peer.call('process/start', {
        ...base(ctx.uri()),
        processId: 'many',
        argv: ['/usr/bin/perl', '-e', PACED_WRITER],
      });
      await peer.notification('process/closed', (p) => p.processId === 'many', 60_000);
      const produced = peer.notifications('process/output').length;
      const read = (await peer.call('process/read', { processId: 'many', afterSeq: 0 }, PROCESS_WAIT_MS)) as {
        chunks: Chunk[];
        nextSeq: number;
      };
      const retained = joinChunks(read.chunks);
      expect(retained.length).toBeLessThan(RETAINED_BYTES);
      if (ctx.impl === 'tether') {
        // Busy-stream reads are joined, so the chunk cap is rarely reached: everything is retained.
        expect(read.chunks.length).toBe(Math.min(produced, RETAINED_CHUNKS));
        if (produced <= RETAINED_CHUNKS) expect(retained.toString()).toBe('chunk..\n'.repeat(SMALL_WRITES));
        return;
      }
      if (produced <= RETAINED_CHUNKS) {
        throw new Error(
          `only ${produced} chunks were produced (writes coalesced); the chunk cap was not exercised`,
        );
      }
      const outputSeqs = peer
        .notifications('process/output')
        .map((n) => Number(n.params.seq))
        .sort((a, b) => a - b);
      expect(read.chunks.length).toBe(RETAINED_CHUNKS);
      expect((read.chunks[0] as Chunk).seq).toBe(outputSeqs[produced - RETAINED_CHUNKS]);
    },
  },
];

function base(cwd: string) {
  return { cwd, env: { PATH: '/usr/bin:/bin' }, tty: false, pipeStdin: false, arg0: null };
}
