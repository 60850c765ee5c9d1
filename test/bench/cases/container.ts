// Case: Container environments against the engine itself, on one real podman container without
// Node (test/support/containers.ts). The cold connect (installs server and runtime) is reported;
// warm connects (installed already, a new client each time) are timed against `podman exec C true`,
// and output throughput of `head -c N /dev/zero` against `podman exec C head -c N /dev/zero`: through
// this process's client, and through `tether run --container podman:C` (the CLI as its own process,
// as a user runs it, timed from spawn to exit like `podman exec`). Contenders take turns run by run.
import { spawn } from 'node:child_process';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import {
  containerName,
  containersAvailable,
  PODMAN,
  removeContainers,
  runContainer,
  testImage,
} from '../../support/containers';
import type { BenchCase, BenchContext } from '../lib/bench-case';
import { withTimeout } from '../lib/child';
import type { CaseRecorder } from '../lib/results';
import { runTetherCommand } from '../lib/tether-run';
import { elapsedMs, mbPerSecond } from '../lib/stats';
import { interleaved, timedOutput } from './ssh';

const COLD = 'tether · container · cold connect (installs server and runtime)';
const WARM = 'tether · container · warm connect';
const EXEC_TRUE = 'podman exec C true';
const OUTPUT_TETHER = 'tether · container · head -c N /dev/zero';
const OUTPUT_EXEC = 'podman exec C head -c N /dev/zero';
const OUTPUT_RUN = 'tether run --container podman:C -- head -c N /dev/zero';

/** ms from creating a client until it is connected; the client is handed back connected. */
async function timedConnect(
  container: string,
  timeoutMs: number,
): Promise<{ ms: number; client: RemoteExecServerClient; installed: boolean }> {
  let installed = false;
  const started = process.hrtime.bigint();
  const client = new RemoteExecServerClient({
    transport: { kind: 'container', engine: 'podman', container },
    ssh: {
      prompt: (prompt) => Promise.reject(new Error(`unexpected prompt: ${prompt.text}`)),
      onStage: (event) => (installed ||= event.stage === 'installing'),
      onLog: () => undefined,
    },
    clientName: 'tether-bench',
  });
  try {
    await withTimeout(client.connect(), timeoutMs, `connect to ${container}`);
  } catch (error) {
    await client.close();
    throw error;
  }
  return { ms: elapsedMs(started), client, installed };
}

/** `podman exec C args…` to its exit: ms and the stdout bytes it read. */
function timedExec(container: string, args: string[]): Promise<{ ms: number; bytes: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(PODMAN, ['exec', container, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (bytes += d.length));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve({ ms: elapsedMs(started), bytes });
      else reject(new Error(`podman exec exited with ${code}: ${stderr.trim()}`));
    });
  });
}

const THROUGH_THE_DAEMON =
  'output passes the daemon in the container (its reader thread, then its main thread writing to the ' +
  "exec session's pipe, which it adopted from the bridge), one process more than the plain command";
const SEE_PERFORMANCE = 'see docs/containers.md, Performance';

function judge(recorder: CaseRecorder): void {
  const times = (v: number): string => `${v.toFixed(2)}×`;
  recorder.ratio('container cold connect / podman exec true', COLD, EXEC_TRUE);
  const warm = recorder.ratio('container warm connect / podman exec true', WARM, EXEC_TRUE);
  recorder.goal('container warm connect ≤ 1.5× podman exec C true (same run)', warm, (v) => v <= 1.5, times);
  const output = recorder.ratio('container output / podman exec output', OUTPUT_TETHER, OUTPUT_EXEC);
  recorder.goal(
    'container output ≥ 0.8× podman exec C cmd (same run)',
    output,
    (v) => v >= 0.8,
    times,
    `${THROUGH_THE_DAEMON}, and is decoded by the client in the bench's own process; ${SEE_PERFORMANCE}`,
  );
  const run = recorder.ratio('tether run --container output / podman exec output', OUTPUT_RUN, OUTPUT_EXEC);
  recorder.goal(
    'tether run --container output ≥ 0.8× podman exec C cmd (same run)',
    run,
    (v) => v >= 0.8,
    times,
    `${THROUGH_THE_DAEMON}; the CLI also starts Node and its bundle (about 0.35 s on this machine, code cache included) before it starts podman, and the bridge's Node inside the container; ${SEE_PERFORMANCE}`,
  );
}

async function run(context: BenchContext, recorder: CaseRecorder): Promise<void> {
  const { warmRuns, outputBytes, outputRuns, runTimeoutMs, connectTimeoutMs } = context.config.container;
  recorder.setup(
    'One podman container (runc, busybox with glibc, no Node) on this machine. One cold connect ' +
      `(server and Node runtime installed inside), ${warmRuns} warm connect(s), each a new client timed until ` +
      'connected, beside one `podman exec C true`; ' +
      `${outputRuns} run(s) of ${outputBytes / 1_048_576} MiB from \`head -c N /dev/zero\` without a pty, through ` +
      'this process’s client and through `tether run --container` (its own process, spawn to exit).',
  );
  if (!containersAvailable()) {
    recorder.missing(WARM, 'ms', 'skipped', 'podman, runc or busybox-static is missing');
    judge(recorder);
    return;
  }
  const name = containerName('bench');
  let client: RemoteExecServerClient | null = null;
  try {
    await runContainer(await testImage('glibc'), name);
    recorder.command(`${PODMAN} --runtime runc run -d --network none … ${name}; podman exec ${name} …`);
    context.log('container connects');
    const cold = await timedConnect(name, connectTimeoutMs);
    await cold.client.close();
    if (!cold.installed) throw new Error('the cold connect installed nothing');
    recorder.ok(COLD, 'ms', [cold.ms]);
    const connectAndClose = async (): Promise<number> => {
      const { ms, client: warm, installed } = await timedConnect(name, connectTimeoutMs);
      await warm.close();
      if (installed) throw new Error('the warm connect uploaded again');
      return ms;
    };
    await interleaved(context, recorder, warmRuns, 'ms', [
      { name: WARM, once: connectAndClose },
      { name: EXEC_TRUE, once: async () => (await timedExec(name, ['true'])).ms },
    ]);
    context.log('container output throughput');
    client = (await timedConnect(name, connectTimeoutMs)).client;
    const throughput = (ms: number): number => mbPerSecond(outputBytes, ms);
    const execOutput = async (): Promise<number> => {
      const { ms, bytes } = await timedExec(name, ['head', '-c', String(outputBytes), '/dev/zero']);
      if (bytes !== outputBytes) throw new Error(`podman exec delivered ${bytes} of ${outputBytes} bytes`);
      return ms;
    };
    const tetherClient = client;
    const cliOutput = async (bytes: number): Promise<number> => {
      const args = ['run', '--container', `podman:${name}`, '--', 'head', '-c', String(bytes), '/dev/zero'];
      const run = await runTetherCommand(args, runTimeoutMs);
      if (run.bytes !== bytes) throw new Error(`tether run delivered ${run.bytes} of ${bytes} bytes`);
      return run.ms;
    };
    recorder.command(`tether run --container podman:${name} -- head -c N /dev/zero`);
    // One unrecorded round at full size: the first round ran slower for every contender (caches,
    // the daemon's and podman's first bulk stream), which three recorded rounds did not outweigh.
    await timedOutput(tetherClient, outputBytes, '/');
    await cliOutput(outputBytes);
    await execOutput();
    await interleaved(context, recorder, outputRuns, 'MB/s', [
      {
        name: OUTPUT_TETHER,
        once: async () =>
          throughput(
            await withTimeout(timedOutput(tetherClient, outputBytes, '/'), runTimeoutMs, OUTPUT_TETHER),
          ),
      },
      {
        name: OUTPUT_EXEC,
        once: async () => throughput(await withTimeout(execOutput(), runTimeoutMs, OUTPUT_EXEC)),
      },
      { name: OUTPUT_RUN, once: async () => throughput(await cliOutput(outputBytes)) },
    ]);
  } finally {
    await client?.close();
    await removeContainers([name]);
  }
  judge(recorder);
}

export const containerCase: BenchCase = {
  id: 'container',
  title: 'Container environments against podman exec: connect, output',
  run,
};
