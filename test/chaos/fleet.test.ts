// The bounded fleet: 20 environments in one `tether web` app (ws ones over two Tether servers, SSH
// ones over one real sshd), each following a process that prints numbered lines, all cut at once for
// 5 s and restored. Every one must resume its session and hold its process's whole output, in order
// and exactly once. The 100-environment, 60 s version with its timings is the `fleet` bench case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvironmentView } from '../../shared/ipc';
import { Fleet } from '../bench/lib/fleet';

const CUT_MS = 5_000;
/** Resuming takes one backoff step after the restore (about 5 s); the rest is room for load. */
const RESUME_TIMEOUT_MS = 60_000;

let fleet: Fleet;
beforeAll(async () => {
  fleet = await Fleet.start({
    wsServers: 2,
    wsEnvironments: 16,
    sshHosts: 1,
    sshEnvironments: 4,
    lineIntervalMs: 100,
    setupTimeoutMs: 120_000,
    log: (line) => console.log(`[fleet] ${line}`),
  });
}, 180_000);
afterAll(async () => {
  await fleet?.stop();
}, 60_000);

describe('a fleet of 20 environments cut at once', () => {
  it(
    'resumes every one with its output complete, in order and exactly once',
    async () => {
      const list = (): Promise<EnvironmentView[]> => fleet.bridge.invoke('environments.list', {});
      const before = new Map((await list()).map((view) => [view.id, view]));
      fleet.cut();
      await new Promise((r) => setTimeout(r, CUT_MS));
      const restoredAt = fleet.restore();
      await fleet.allResumed(RESUME_TIMEOUT_MS);
      const checks = await fleet.checkAll(restoredAt, RESUME_TIMEOUT_MS);
      const after = new Map((await list()).map((view) => [view.id, view]));

      for (const [i, environment] of fleet.environments.entries()) {
        const check = checks[i]!;
        const view = after.get(environment.envId)!;
        expect(check, environment.name).toMatchObject({ lost: 0, repeated: 0, gaps: 0 });
        // The lines printed while cut off are there: at least the cut's worth of them.
        expect(check.lines, environment.name).toBeGreaterThan(CUT_MS / 100);
        expect(view.link.kind, environment.name).toBe('connected');
        expect(view.health?.reconnectCount, `${environment.name}: one outage, one resume`).toBe(
          (before.get(environment.envId)!.health?.reconnectCount ?? 0) + 1,
        );
      }
      const processes = await Promise.all(
        fleet.environments.map((e) =>
          fleet.bridge.invoke<Array<{ processId: string; state: string }>>('processes.list', {
            envId: e.envId,
          }),
        ),
      );
      for (const [i, environment] of fleet.environments.entries()) {
        const view = processes[i]!.find((p) => p.processId === environment.processId);
        expect(view?.state, `${environment.name}: the same process, still followed`).toBe('running');
      }
      expect(fleet.environments.filter((e) => e.kind === 'ssh')).toHaveLength(4);
    },
    RESUME_TIMEOUT_MS * 2 + CUT_MS,
  );
});
