// A route change that strands the open connection (no byte, not even FIN, passes on it) while new
// connections work: the server still sees the old connection attached and refuses the resume with
// -32010. Codex 0.171.0 lets go of it only once TCP gives up on it, so by default the client keeps
// trying (the cause in its state); with a caller's give-up it must end in a clear `failed` state at
// that deadline, naming the cause. Tether's server pings the old connection before refusing, drops
// it when it stays silent, and lets the resume through.
import { describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../electron/client/api';
import { DEAD_AFTER_MS } from '../../electron/client/constants';
import { waitUntil, within } from './process-follower';
import { chaosRig, startFollowed } from './rig';

const RECOVERY_DEADLINE_MS = 4_000;
/** Liveness detection, then the recovery deadline, with room for a loaded machine. */
const FAILED_WITHIN_MS = DEAD_AFTER_MS + RECOVERY_DEADLINE_MS + 15_000;

const rig = chaosRig();

describe('a half-dead route against codex', () => {
  it("ends in failed with the -32010 cause once the caller's give-up passes", async () => {
    const { server, proxy } = await rig.serve('codex');
    const client = rig.client(proxy, { recoveryDeadlineMs: RECOVERY_DEADLINE_MS });
    const states: ConnectionState['kind'][] = [];
    client.onStateChange((state) => states.push(state.kind));
    await client.connect();
    const { followed } = await startFollowed(client, server, {
      argv: ['/bin/sh', '-c', 'while :; do echo tick; sleep 0.2; done'],
    });
    await waitUntil(() => followed.output().length > 0, 10_000, 'the first output');

    proxy.stall('existing');
    await waitUntil(() => client.state.kind === 'failed', FAILED_WITHIN_MS, 'the client to fail');

    const state = client.state as Extract<ConnectionState, { kind: 'failed' }>;
    expect(state.code).toBe('recoveryDeadline');
    expect(state.reason).toMatch(/already attached/);
    expect(states).toContain('reconnecting');
    expect(await within(followed.finished, 5_000, 'the process to report the failure')).toBe('failed');
    // Reconnects were real attempts on fresh connections, not stuck on the stranded one.
    expect(proxy.stats().connections).toBeGreaterThan(1);
  });
});

describe('a half-dead route against Tether', () => {
  it('takes the session over from the silent connection and loses no output', async () => {
    const { server, proxy } = await rig.serve('tether');
    const client = rig.client(proxy, { recoveryDeadlineMs: 30_000 });
    await client.connect();
    const { followed } = await startFollowed(client, server, {
      argv: ['/bin/sh', '-c', 'i=0; while [ $i -lt 60 ]; do i=$((i+1)); echo line $i; sleep 0.1; done'],
    });
    await waitUntil(() => followed.output().length > 0, 10_000, 'the first output');

    proxy.stall('existing');
    expect(await within(followed.finished, FAILED_WITHIN_MS + 10_000, 'the process to finish')).toBe(
      'closed',
    );
    const expected = Array.from({ length: 60 }, (_, i) => `line ${i + 1}\n`).join('');
    expect(followed.output().toString()).toBe(expected);
    expect(client.state.kind).toBe('connected');
    expect(client.health().reconnectCount).toBe(1);
  });
});
