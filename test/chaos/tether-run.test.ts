// `tether run` as a black box through the fault proxy, against both servers: stdout must be the
// process's output byte for byte and the exit code the process's, whatever the link does meanwhile.
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RUN_FAILURE_EXIT_CODE } from '../../electron/client/cli/run-cli';
import { TETHER_BIN, type ServerImpl, type StartedServer } from '../support/exec-servers';
import { FaultSchedule, NO_CUT_PROVES_NOTHING } from './fault-schedule';
import { firstDifference, lineStream } from './line-stream';
import { chaosSeed, randomInt, seededRandom } from '../support/seeded-random';
import { chaosRig } from './rig';

/** A run that is still going this long after it started has hung. */
const RUN_TIMEOUT_MS = 60_000;
/** Lines fed to `tether run`'s stdin in the input test. */
const INPUT_LINES = 200;
/** `tether run --recovery-deadline` (seconds) for the never-recovers case. */
const GIVE_UP_AFTER_S = 2;

interface RunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * Spawns `tether run`; `onFirstOutput` fires with the first stdout bytes, i.e. once the process is
 * running, and gets the run's stdin. Faults start only then: a start cut in flight is deliberately not retried (it could run
 * twice), and a first connection that fails is reported, not retried.
 */
function tetherRun(
  server: StartedServer,
  url: string,
  argv: string[],
  flags: string[],
  onFirstOutput: (stdin: Writable) => void,
): Promise<RunResult> {
  const auth = server.tokenFile === undefined ? [] : ['--token-file', server.tokenFile];
  const child = spawn(
    process.execPath,
    [TETHER_BIN, 'run', '--server', url, ...auth, ...flags, '--', ...argv],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    if (stdout.length === 0) onFirstOutput(child.stdin);
    stdout.push(d);
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (stderr = (stderr + d).slice(-20_000)));
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({ exitCode, signal, stdout: Buffer.concat(stdout), stderr });
    });
  });
}

describe.each<ServerImpl>(['tether', 'codex'])('tether run against %s through a faulty link', (impl) => {
  const rig = chaosRig();

  it.each([false, true])('tty=%s: stdout is byte-exact and the exit code is the process one', async (tty) => {
    const seed = chaosSeed();
    console.log(`[chaos] tether run (${impl}, tty=${tty}) seed=${seed} (replay with CHAOS_SEED=${seed})`);
    const { server, proxy } = await rig.serve(impl);
    const stream = lineStream({ bursts: 60, linesPerBurst: 1_000, pauseMs: 60, exitCode: 5 });

    let schedule: FaultSchedule | undefined;
    const faultyProxy = proxy;
    const result = await tetherRun(server, proxy.url(), stream.argv, tty ? ['--tty'] : [], () => {
      schedule = new FaultSchedule({ proxy: faultyProxy, random: seededRandom(seed), maxFaults: 30 });
    }).finally(() => schedule?.stop());

    const context = `seed=${seed} faults: ${schedule?.describe()}\nstderr: ${result.stderr}`;
    console.log(`[chaos] tether run (${impl}, tty=${tty}) ${context}`);
    expect(schedule?.connectionsCut(), `${context}\n${NO_CUT_PROVES_NOTHING}`).toBeGreaterThan(0);
    expect(result.signal, context).toBeNull();
    expect(firstDifference(result.stdout, stream.expected(tty ? '\r\n' : '\n')), context).toBe('identical');
    expect(result.exitCode, context).toBe(stream.exitCode);
  });
});

describe.each<ServerImpl>(['tether', 'codex'])(
  'tether run against %s when the link never comes back',
  (impl) => {
    const rig = chaosRig();

    it('exits 255 with a reason once the recovery deadline passes', async () => {
      const { server, proxy } = await rig.serve(impl);
      const silentProxy = proxy;
      let cut = 0;
      const result = await tetherRun(
        server,
        proxy.url(),
        ['/bin/sh', '-c', 'echo started; exec sleep 60'],
        ['--recovery-deadline', String(GIVE_UP_AFTER_S)],
        () => {
          // Cut, then silence: reconnects reach TCP but never get an answer.
          cut = silentProxy.cutAll();
          silentProxy.stall();
        },
      );
      expect(cut, 'the live connection is cut').toBe(1);
      expect(result.stdout.toString()).toBe('started\n');
      expect(result.signal, result.stderr).toBeNull();
      expect(result.exitCode, result.stderr).toBe(RUN_FAILURE_EXIT_CODE);
      expect(result.stderr).toMatch(/reconnect/i);
    });
  },
);

describe.each<ServerImpl>(['tether', 'codex'])('tether run input to %s through a faulty link', (impl) => {
  const rig = chaosRig();

  // Pipes only: with --tty but stdin not a terminal, input takes the same path through the client,
  // and pty writes are covered by client-write.test.ts.
  it('every stdin line reaches the process exactly once, in order', async () => {
    const seed = chaosSeed();
    const random = seededRandom(seed);
    console.log(`[chaos] tether run input (${impl}) seed=${seed} (replay with CHAOS_SEED=${seed})`);
    const { server, proxy } = await rig.serve(impl);
    const faultyProxy = proxy;
    const line = (i: number) => `input-${String(i).padStart(6, '0')}`;
    let schedule: FaultSchedule | undefined;
    let feeding: Promise<void> = Promise.resolve();
    // `head` ends the process after the last line, so the run's exit code is 0.
    const script = `echo READY; exec head -n ${INPUT_LINES}`;
    const result = await tetherRun(server, proxy.url(), ['/bin/sh', '-c', script], [], (stdin) => {
      schedule = new FaultSchedule({ proxy: faultyProxy, random, maxFaults: 30 });
      feeding = (async () => {
        for (let i = 1; i <= INPUT_LINES; i++) {
          stdin.write(`${line(i)}\n`);
          await new Promise((r) => setTimeout(r, randomInt(random, 5, 40)));
        }
      })();
    }).finally(async () => {
      await feeding;
      await schedule?.stop();
    });

    let expected = 'READY\n';
    for (let i = 1; i <= INPUT_LINES; i++) expected += `${line(i)}\n`;
    const context = `seed=${seed} faults: ${schedule?.describe()}\nstderr: ${result.stderr}`;
    console.log(`[chaos] tether run input (${impl}) ${context}`);
    expect(schedule?.connectionsCut(), `${context}\n${NO_CUT_PROVES_NOTHING}`).toBeGreaterThan(0);
    expect(firstDifference(result.stdout, Buffer.from(expected)), context).toBe('identical');
    expect(result.exitCode, context).toBe(0);
  });
});
