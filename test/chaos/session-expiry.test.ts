// An outage longer than recovery can bridge must end in a clear `failed` state, never a hang:
// against Tether with a short server session TTL (the resume is refused once the link is back: the
// session expired, dated by its advertised lifetime), and against codex with a caller's give-up
// (`recoveryDeadlineMs`) shorter than the outage.
import { describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../electron/client/api';
import { waitUntil, within } from './process-follower';
import { chaosRig, startFollowed } from './rig';
import { pidAlive } from '../support/pids';

const TETHER_SESSION_TTL_MS = 3_000;
const CODEX_GIVE_UP_AFTER_MS = 3_000;
/** How long past the advertised lifetime the client keeps trying (1 min by default). */
const HOLD_MARGIN_MS = 1_000;
const OUTAGE_MS = 5_000;
/** Bound for the client to reach `failed` once recovery cannot succeed. */
const FAILED_WITHIN_MS = 20_000;

describe('an outage longer than recovery allows', () => {
  const rig = chaosRig();

  async function setUp(impl: 'tether' | 'codex', extraArgs: string[], recoveryDeadlineMs?: number) {
    const { server, proxy } = await rig.serve(impl, { extraArgs });
    const client = rig.client(proxy, recoveryDeadlineMs === undefined ? {} : { recoveryDeadlineMs });
    const states: ConnectionState[] = [];
    client.onStateChange((state) => states.push(state));
    await client.connect();
    const { handle, followed } = await startFollowed(client, server, {
      argv: ['/bin/sh', '-c', 'echo started; exec sleep 60'],
    });
    await waitUntil(() => followed.output().toString() === 'started\n', 10_000, 'the first output');
    return { client, proxy, states, followed, pid: handle.pid };
  }

  it('tether: the session expired on the server, so the resume is refused and the client fails', async () => {
    // No give-up: the client's own bound is the advertised 3 s plus a margin, so it still tries.
    const { client, proxy, states, followed, pid } = await setUp('tether', [
      '--session-ttl-ms',
      String(TETHER_SESSION_TTL_MS),
    ]);
    const lastContactBefore = Date.now();
    expect(proxy.cutAll(), 'the live connection is cut').toBe(1);
    proxy.refuseNew(true);
    await waitUntil(() => client.state.kind === 'reconnecting', 10_000, 'the client to notice the cut');
    const reconnecting = client.state as Extract<ConnectionState, { kind: 'reconnecting' }>;
    expect(reconnecting.sessionHeldUntil, 'held for the advertised lifetime after the last contact').toEqual(
      expect.any(Number),
    );
    expect(reconnecting.sessionHeldUntil! - lastContactBefore).toBeLessThanOrEqual(TETHER_SESSION_TTL_MS);
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    proxy.restore();
    client.reconnectNow();

    await waitUntil(() => client.state.kind === 'failed', FAILED_WITHIN_MS, 'the client to fail');
    const state = client.state as Extract<ConnectionState, { kind: 'failed' }>;
    expect(state.code).toBe('unknownSession');
    expect(state.reason).toMatch(/session/i);
    expect(state.expiredAt, 'dated by the lifetime it was held for, not by when we learnt it').toBe(
      reconnecting.sessionHeldUntil,
    );
    expect(states.map((s) => s.kind)).toContain('reconnecting');
    expect(await within(followed.finished, 5_000, 'the process to report the failure')).toBe('failed');
    expect(followed.problems.join('\n')).toMatch(/failed/);
    console.log(`[chaos] tether expiry: ${state.reason} | ${followed.problems.join(' | ')}`);
    // The expired session took its processes with it (Tether reports the pid; codex does not).
    expect(pid).toEqual(expect.any(Number));
    await waitUntil(() => !pidAlive(pid!), 10_000, `pid ${pid} to be gone`);
  });

  it('tether: the network never comes back, so the client ends the outage once the lifetime has passed', async () => {
    const { server, proxy } = await rig.serve('tether', {
      extraArgs: ['--session-ttl-ms', String(TETHER_SESSION_TTL_MS)],
    });
    const client = rig.client(proxy, { sessionHoldMarginMs: HOLD_MARGIN_MS });
    await client.connect();
    const { followed } = await startFollowed(client, server, {
      argv: ['/bin/sh', '-c', 'echo started; exec sleep 60'],
    });
    await waitUntil(() => followed.output().toString() === 'started\n', 10_000, 'the first output');
    expect(proxy.cutAll(), 'the live connection is cut').toBe(1);
    proxy.refuseNew(true);
    await waitUntil(() => client.state.kind === 'reconnecting', 10_000, 'the client to notice the cut');
    const reconnecting = client.state as Extract<ConnectionState, { kind: 'reconnecting' }>;
    expect(reconnecting.deadlineAt).toBe(reconnecting.sessionHeldUntil! + HOLD_MARGIN_MS);

    await waitUntil(() => client.state.kind === 'failed', FAILED_WITHIN_MS, 'the client to give up');
    const state = client.state as Extract<ConnectionState, { kind: 'failed' }>;
    expect(state.since).toBeGreaterThanOrEqual(reconnecting.deadlineAt!);
    expect(state.code, 'the session is gone, not merely unreachable').toBe('unknownSession');
    expect(state.reason).toMatch(/expired/);
    expect(state.expiredAt).toBe(reconnecting.sessionHeldUntil);
    expect(await within(followed.finished, 5_000, 'the process to report the failure')).toBe('failed');
  });

  it("codex: the caller's give-up passes while the link is silent, and the client fails", async () => {
    const { client, proxy, followed } = await setUp('codex', [], CODEX_GIVE_UP_AFTER_MS);
    // Cut, then stall: reconnect attempts reach TCP but their handshakes hang, so the give-up, not a
    // refusal, must end the recovery.
    expect(proxy.cutAll(), 'the live connection is cut').toBe(1);
    proxy.stall();
    try {
      await waitUntil(() => client.state.kind === 'failed', FAILED_WITHIN_MS, 'the client to fail');
    } finally {
      proxy.restore();
    }
    const state = client.state as Extract<ConnectionState, { kind: 'failed' }>;
    expect(state.code).toBe('recoveryDeadline');
    expect(state.reason.length).toBeGreaterThan(0);
    console.log(`[chaos] codex deadline: ${state.reason} | ${followed.problems.join(' | ')}`);
    expect(await within(followed.finished, 5_000, 'the process to report the failure')).toBe('failed');
  });
});
