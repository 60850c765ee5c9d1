// When an outage outlasts what the server retains (1 MiB per process), the lost part cannot be
// recovered; the client must say so with a `gap` event — never hide it — and then deliver the
// retained tail exactly, followed by the exit code. Against both servers.
import { describe, expect, it } from 'vitest';
import type { ProcessEvent } from '../../electron/client/api';
import { type ServerImpl } from '../support/exec-servers';
import { waitUntil } from './process-follower';
import { chaosRig } from './rig';

/** ~2.7 MB of numbered lines, well over the servers' 1 MiB retention. */
const LINES = 400_000;
const OUTAGE_MS = 3_000;
const EXIT_CODE = 4;

describe.each<ServerImpl>(['tether', 'codex'])('output beyond retention during an outage (%s)', (impl) => {
  const rig = chaosRig();

  it('is reported as a gap, and the retained tail follows exactly once', async () => {
    const { server, proxy } = await rig.serve(impl);
    const client = rig.client(proxy);
    await client.connect();
    const handle = await client.startProcess({
      argv: ['/bin/sh', '-c', `echo go; sleep 1; seq 1 ${LINES}; exit ${EXIT_CODE}`],
      cwd: server.home,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      tty: false,
    });
    const events: ProcessEvent[] = [];
    handle.subscribe((event) => events.push(event));
    await waitUntil(() => events.length > 0, 10_000, 'the first output');

    // The whole `seq` runs while the link is down and reconnects are refused.
    proxy.cutAll();
    proxy.refuseNew(true);
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    proxy.restore();
    await waitUntil(
      () => events.some((e) => e.kind === 'closed' || e.kind === 'failed'),
      30_000,
      'the process to close',
    );

    const kinds = events.map((e) => (e.kind === 'output' ? `output#${e.seq}` : JSON.stringify(e)));
    const context = `events: ${kinds.slice(0, 5).join(' ')} … ${kinds.slice(-4).join(' ')}`;
    const seqs = events.flatMap((e) => ('seq' in e ? [e.seq] : []));
    for (let i = 1; i < seqs.length; i++) expect(seqs[i], context).toBeGreaterThan(seqs[i - 1]!);

    const gaps = events.filter((e): e is Extract<ProcessEvent, { kind: 'gap' }> => e.kind === 'gap');
    expect(gaps, context).toHaveLength(1);
    const gap = gaps[0]!;
    expect(gap.fromSeq, context).toBe(2);
    expect(gap.toSeq, context).toBeGreaterThanOrEqual(gap.fromSeq);
    const afterGap = events[events.indexOf(gap) + 1];
    expect(afterGap && 'seq' in afterGap ? afterGap.seq : null, context).toBe(gap.toSeq + 1);

    const text = (list: ProcessEvent[]) =>
      Buffer.concat(list.flatMap((e) => (e.kind === 'output' ? [Buffer.from(e.data)] : []))).toString();
    const before = text(events.slice(0, events.indexOf(gap)));
    const tail = text(events.slice(events.indexOf(gap) + 1));
    let all = '';
    for (let i = 1; i <= LINES; i++) all += `${i}\n`;
    expect(before, context).toBe('go\n');
    expect(tail.length, context).toBeGreaterThan(0);
    expect(tail.length, context).toBeLessThanOrEqual(1_048_576);
    expect(all.endsWith(tail), context).toBe(true);
    expect(
      events.find((e) => e.kind === 'exited'),
      context,
    ).toMatchObject({ exitCode: EXIT_CODE });
    expect(events.at(-1)?.kind, context).toBe('closed');
  });
});
