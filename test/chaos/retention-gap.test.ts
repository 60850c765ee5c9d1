// When an outage outlasts what the server retains (1 MiB per process), the lost part cannot be
// recovered; the client must say so with a `gap` event — never hide it — and then deliver the
// retained tail exactly, followed by the exit code. The gap is checked against what the server
// itself still holds (read straight from it during the outage), so a gap that is one seq too wide
// or too narrow fails. Against both servers.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProcessEvent } from '../../electron/client/api';
import { type ServerImpl } from '../support/exec-servers';
import { accountForGap } from '../support/gap-accounting';
import { readRetainedOutput } from '../support/retained-output';
import { waitUntil } from './process-follower';
import { chaosRig } from './rig';

/** 3.2 MB of 8-byte numbered lines, well over the servers' 1 MiB retention. */
const LINES = 400_000;
const EXIT_CODE = 4;

const numbered = (count: number) =>
  Array.from({ length: count }, (_, i) => `${String(i + 1).padStart(7, '0')}\n`).join('');

describe.each<ServerImpl>(['tether', 'codex'])('output beyond retention during an outage (%s)', (impl) => {
  const rig = chaosRig();

  it('is reported as one gap of exactly the evicted seqs, and the retained tail follows once', async () => {
    const { server, proxy } = await rig.serve(impl);
    const client = rig.client(proxy);
    await client.connect();
    const sessionId = client.state.kind === 'connected' ? client.state.sessionId : '';
    const trigger = path.join(server.home, 'go');
    const handle = await client.startProcess({
      argv: [
        '/bin/sh',
        '-c',
        `echo go; while [ ! -f go ]; do sleep 0.02; done; seq -f '%07g' 1 ${LINES}; exit ${EXIT_CODE}`,
      ],
      cwd: server.home,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      tty: false,
    });
    const events: ProcessEvent[] = [];
    handle.subscribe((event) => events.push(event));
    await waitUntil(() => events.length > 0, 10_000, 'the first output');

    // The whole `seq` runs while the link is down and reconnects are refused.
    expect(proxy.cutAll(), 'the live connection is cut').toBe(1);
    proxy.refuseNew(true);
    writeFileSync(trigger, '');
    const retained = await readRetainedOutput(server, sessionId, handle.processId, 'closed');
    proxy.restore();
    await waitUntil(
      () => events.some((e) => e.kind === 'closed' || e.kind === 'failed'),
      30_000,
      'the process to close',
    );

    const kinds = events.map((e) => (e.kind === 'output' ? `output#${e.seq}` : JSON.stringify(e)));
    const context =
      `events: ${kinds.slice(0, 5).join(' ')} … ${kinds.slice(-4).join(' ')}; ` +
      `server retains seqs ${retained.chunks[0]?.seq}..${retained.chunks.at(-1)?.seq}`;
    const account = accountForGap(events, retained, Buffer.from(`go\n${numbered(LINES)}`));
    expect(account.problems, context).toEqual([]);
    expect(account.gap, context).toMatchObject({ fromSeq: 2, toSeq: retained.chunks[0]!.seq - 1 });
    expect(events[0], context).toMatchObject({ kind: 'output', seq: 1 });
    expect(retained.exitCode, context).toBe(EXIT_CODE);
    expect(
      events.find((e) => e.kind === 'exited'),
      context,
    ).toMatchObject({ exitCode: EXIT_CODE });
    expect(events.at(-1)?.kind, context).toBe('closed');
  });
});
