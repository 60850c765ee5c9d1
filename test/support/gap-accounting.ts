// Checks a client's event stream around one retention gap against the server's truth: every seq is
// accounted for exactly once, the gap covers exactly the seqs the server no longer holds, the
// retained chunks are delivered byte-exact, and delivered + lost bytes = produced bytes.
import type { ProcessEvent } from '../../electron/client/api';
import type { RetainedOutput } from './retained-output';

type GapEvent = Extract<ProcessEvent, { kind: 'gap' }>;

export interface GapAccount {
  /** Everything wrong, in words; an exact account has none. */
  problems: string[];
  gap: GapEvent | null;
  deliveredBytes: number;
  lostBytes: number;
}

/**
 * `produced` is every byte the process wrote, in order, and must identify its own position (e.g.
 * fixed-width numbered lines), so a delivered stretch that is misplaced cannot match by accident.
 * `retained` is a snapshot taken while the client was cut off; chunks the server produced after it
 * are not judged here.
 */
export function accountForGap(
  events: ProcessEvent[],
  retained: RetainedOutput,
  produced: Buffer,
): GapAccount {
  const problems: string[] = [];

  let next = 1;
  for (const event of events) {
    if (event.kind === 'failed') {
      problems.push(`the process failed: ${event.message}`);
      continue;
    }
    const from = event.kind === 'gap' ? event.fromSeq : event.seq;
    const to = event.kind === 'gap' ? event.toSeq : event.seq;
    if (from !== next || to < from)
      problems.push(`${event.kind} covers ${from}..${to} where seq ${next} was due`);
    next = to + 1;
  }

  const gaps = events.filter((e): e is GapEvent => e.kind === 'gap');
  if (gaps.length !== 1) problems.push(`expected exactly one gap, got ${gaps.length}`);
  const gap = gaps[0] ?? null;
  for (const g of gaps) {
    const held = retained.chunks.filter((c) => c.seq >= g.fromSeq && c.seq <= g.toSeq).map((c) => c.seq);
    if (held.length > 0)
      problems.push(`gap ${g.fromSeq}..${g.toSeq} hides seqs the server still holds: ${held}`);
    // The server evicts oldest first, so the gap ends right below the oldest chunk it still holds
    // (or, if it holds none after the gap, before the first seq it had not yet given out).
    const nextHeld = retained.chunks.find((c) => c.seq > g.fromSeq)?.seq;
    const end = (nextHeld ?? retained.nextSeq) - 1;
    if (nextHeld !== undefined ? g.toSeq !== end : g.toSeq > end) {
      problems.push(`gap ${g.fromSeq}..${g.toSeq} should end at ${end}`);
    }
  }

  const delivered = new Map<number, Extract<ProcessEvent, { kind: 'output' }>>();
  for (const e of events) if (e.kind === 'output') delivered.set(e.seq, e);
  for (const chunk of retained.chunks) {
    const got = delivered.get(chunk.seq);
    if (!got) problems.push(`retained seq ${chunk.seq} was never delivered`);
    else if (got.stream !== chunk.stream || !Buffer.from(got.data).equals(chunk.data)) {
      problems.push(`seq ${chunk.seq} was delivered with other bytes than the server holds`);
    }
  }

  const bytesOf = (list: ProcessEvent[]) =>
    Buffer.concat(list.flatMap((e) => (e.kind === 'output' ? [Buffer.from(e.data)] : [])));
  const at = gap ? events.indexOf(gap) : events.length;
  const before = bytesOf(events.slice(0, at));
  const after = bytesOf(events.slice(at + 1));
  const lostBytes = produced.length - before.length - after.length;
  if (!produced.subarray(0, before.length).equals(before)) {
    problems.push(`the ${before.length} bytes before the gap are not the start of the output`);
  }
  if (!produced.subarray(produced.length - after.length).equals(after)) {
    problems.push(`the ${after.length} bytes after the gap are not the end of the output`);
  }
  if (gap && !(lostBytes > 0)) {
    problems.push(
      `a gap was reported, but delivered ${before.length + after.length} of ${produced.length} bytes`,
    );
  }
  return { problems, gap, deliveredBytes: before.length + after.length, lostBytes };
}
