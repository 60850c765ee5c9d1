// Case: SSH environments against plain OpenSSH, through one ssh config to a real sshd on 127.0.0.1
// (test/support/sshd.ts). Cold connect (fresh host HOME, so the server is installed) and warm connect
// (installed already) against `ssh host true`; keystroke echo against `ssh -tt host cat`; output
// throughput against `ssh host head -c N /dev/zero`: this process's client against ssh over a master
// of its own, and `tether run --ssh host` (the CLI as its own process, over the shared master it
// reuses, spawn to exit) against a plain `ssh host head …`, as a user would run either. Contenders
// take turns run by run.
import { KEYSTROKE_MESSAGES } from './echo';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ExecServerClientApi } from '../../../electron/client/api';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import type { SshHooks, SshStage } from '../../../electron/client/transports/ssh/ssh-hooks';
import { SSHD_BINARY, SshTestRig, type SshdHost } from '../../support/sshd';
import type { BenchCase, BenchContext } from '../lib/bench-case';
import { startHelper, withTimeout } from '../lib/child';
import { clientTarget, commandTarget, RAW_CAT, sampleInRounds, type EchoTarget } from '../lib/echo-targets';
import type { CaseRecorder } from '../lib/results';
import { collectUntilClosed, PROCESS_CWD } from '../lib/sides';
import { elapsedMs, mbPerSecond, quantile } from '../lib/stats';
import { runTetherCommand } from '../lib/tether-run';

/** The row recorded (and excused by the harness) when this machine has no sshd. */
export const SSH_ENVIRONMENT_ROW = 'ssh environment';

export const COLD = 'tether · cold connect (installs server)';
export const WARM = 'tether · warm connect';
/** What `tether run --ssh` does within a few minutes of the last one: the shared master signs in no more. */
export const WARM_SHARED = 'tether · warm connect, reused master';
export const SSH_TRUE = 'ssh host true';
const ECHO_TETHER = 'tether · ssh environment · pty cat';
const ECHO_SSH = 'ssh -tt host cat';
/** Tether's links are mux clients of a master: this row shows what that hop costs plain ssh. */
const ECHO_SSH_MUX = 'ssh -tt host cat (mux client of a master)';
const OUTPUT_TETHER = 'tether · ssh environment · head -c N /dev/zero';
const OUTPUT_SSH = 'ssh host head -c N /dev/zero (over its own master)';
const OUTPUT_RUN = 'tether run --ssh host -- head -c N /dev/zero';
const OUTPUT_SSH_PLAIN = 'ssh host head -c N /dev/zero';

/** Stages a connect went through; a prompt means the rig is broken (its host key is trusted). */
function recordingStages(): { hooks: SshHooks; stages: SshStage[] } {
  const stages: SshStage[] = [];
  return {
    stages,
    hooks: {
      prompt: (prompt) => Promise.reject(new Error(`unexpected ssh prompt: ${prompt.text}`)),
      onStage: (event) => stages.push(event.stage),
      onLog: () => undefined,
    },
  };
}

function sshClient(
  rig: SshTestRig,
  host: SshdHost,
  hooks: SshHooks,
  sharedMaster = false,
): RemoteExecServerClient {
  return new RemoteExecServerClient({
    transport: { kind: 'ssh', destination: host.alias, sshOptions: rig.sshOptions },
    ssh: hooks,
    clientName: 'tether-bench',
    sshSharedMaster: sharedMaster,
  });
}

/** ms from creating a client until it is connected; the client is handed back still connected. */
async function timedConnect(
  rig: SshTestRig,
  host: SshdHost,
  timeoutMs: number,
  sharedMaster = false,
): Promise<{ ms: number; client: RemoteExecServerClient; installed: boolean }> {
  const { hooks, stages } = recordingStages();
  const started = process.hrtime.bigint();
  const client = sshClient(rig, host, hooks, sharedMaster);
  try {
    await withTimeout(client.connect(), timeoutMs, `connect to ${host.alias}`);
  } catch (error) {
    await client.close();
    throw error;
  }
  return { ms: elapsedMs(started), client, installed: stages.includes('installing') };
}

/** Runs `ssh -F config [options] host args…` to exit; resolves with ms and the stdout bytes it read. */
function timedSsh(
  rig: SshTestRig,
  host: SshdHost,
  args: string[],
  options: string[] = [],
): Promise<{ ms: number; bytes: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn('ssh', [...rig.sshOptions, ...options, host.alias, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let bytes = 0;
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (bytes += d.length));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve({ ms: elapsedMs(started), bytes });
      else reject(new Error(`ssh exited with ${code}: ${stderr.trim()}`));
    });
  });
}

/**
 * An ssh master connection of the reference's own, so its output runs ride an established
 * connection as Tether's do (the handshake is what `ssh host true` measures), and the echo can show
 * what a mux hop costs plain ssh.
 */
async function referenceMaster(
  rig: SshTestRig,
  host: SshdHost,
  timeoutMs: number,
): Promise<{ muxOptions: string[]; stop: () => Promise<void> }> {
  const controlPath = path.join(rig.dir, 'reference-cm');
  const master = startHelper('ssh', [
    ...rig.sshOptions,
    '-N',
    '-o',
    'ControlMaster=yes',
    '-o',
    `ControlPath=${controlPath}`,
    '-o',
    'ControlPersist=no',
    host.alias,
  ]);
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(controlPath)) {
    if (master.child.exitCode !== null || Date.now() > deadline) {
      await master.stop();
      throw new Error('the reference ssh master did not come up');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { muxOptions: ['-o', 'ControlMaster=no', '-o', `ControlPath=${controlPath}`], stop: master.stop };
}

/** Runs `head -c bytes /dev/zero` through the client (no pty) and checks every byte arrived. */
export async function timedOutput(
  client: ExecServerClientApi,
  bytes: number,
  cwd = PROCESS_CWD,
): Promise<number> {
  const started = process.hrtime.bigint();
  const handle = await client.startProcess({
    argv: ['head', '-c', String(bytes), '/dev/zero'],
    cwd,
    env: { PATH: '/usr/bin:/bin' },
    tty: false,
  });
  try {
    const got = await collectUntilClosed(handle);
    if (got !== bytes) throw new Error(`output lost: ${got} of ${bytes} bytes arrived`);
    return elapsedMs(started);
  } finally {
    handle.dispose();
  }
}

/** Runs each contender once per round, in turn; a failing contender is recorded and dropped. */
export async function interleaved(
  context: BenchContext,
  recorder: CaseRecorder,
  rounds: number,
  unit: string,
  contenders: Array<{ name: string; once: () => Promise<number> }>,
): Promise<void> {
  const values = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  const failed = new Set<string>();
  for (let round = 0; round < rounds; round++) {
    for (const contender of contenders) {
      if (failed.has(contender.name)) continue;
      try {
        values.get(contender.name)!.push(await contender.once());
      } catch (error) {
        failed.add(contender.name);
        recorder.missing(contender.name, unit, 'failed', (error as Error).message);
        context.log(`  ${contender.name}: failed: ${(error as Error).message}`);
      }
    }
  }
  for (const contender of contenders) {
    if (failed.has(contender.name)) continue;
    const list = values.get(contender.name)!;
    recorder.ok(contender.name, unit, list);
    context.log(`  ${contender.name}: ${list.map((v) => v.toFixed(1)).join(', ')} ${unit}`);
  }
}

async function measureConnects(
  context: BenchContext,
  recorder: CaseRecorder,
  rig: SshTestRig,
  timeoutMs: number,
): Promise<SshdHost> {
  const { coldRuns, warmRuns } = context.config.ssh;
  const connectAndClose = async (
    host: SshdHost,
    expectInstall: boolean,
    sharedMaster = false,
  ): Promise<number> => {
    const { ms, client, installed } = await timedConnect(rig, host, timeoutMs, sharedMaster);
    await client.close();
    // A cold run that installed nothing, or a warm one that did, measured the wrong thing.
    if (installed !== expectInstall) {
      throw new Error(
        expectInstall ? 'the cold connect installed nothing' : 'the warm connect uploaded again',
      );
    }
    return ms;
  };
  const coldHosts: SshdHost[] = [];
  const freshHost = async (): Promise<SshdHost> => {
    const host = await rig.startHost({ alias: `bench-cold-${coldHosts.length}` });
    rig.trustHost(host);
    coldHosts.push(host);
    return host;
  };
  // Every cold run gets a host of its own (a fresh HOME); `ssh true` goes to that same host.
  let current: SshdHost | null = null;
  await interleaved(context, recorder, coldRuns, 'ms', [
    {
      name: COLD,
      once: async () => {
        current = await freshHost();
        return connectAndClose(current, true);
      },
    },
    {
      name: SSH_TRUE,
      once: async () => {
        if (!current) throw new Error('no host was started for this run');
        return (await timedSsh(rig, current, ['true'])).ms;
      },
    },
  ]);
  const host = coldHosts[0];
  if (!host) throw new Error('no host was started');
  // Hosts other than the first are done; the first serves the warm runs, echo and output.
  for (const other of coldHosts.slice(1)) await other.stop();
  // The CLI's shared master is started once, unmeasured: each measured run then reuses it, as a
  // `tether run --ssh` shortly after another does.
  await connectAndClose(host, false, true);
  await interleaved(context, recorder, warmRuns, 'ms', [
    { name: WARM, once: () => connectAndClose(host, false) },
    { name: WARM_SHARED, once: () => connectAndClose(host, false, true) },
    { name: `${SSH_TRUE} (warm runs)`, once: async () => (await timedSsh(rig, host, ['true'])).ms },
  ]);
  return host;
}

async function measureEcho(
  context: BenchContext,
  recorder: CaseRecorder,
  rig: SshTestRig,
  host: SshdHost,
  client: ExecServerClientApi,
  muxOptions: string[],
): Promise<void> {
  const { echoSamples, echoWarmupSamples, sampleTimeoutMs } = context.config.ssh;
  const sshArgv = ['ssh', '-tt', ...rig.sshOptions, host.alias, RAW_CAT];
  recorder.command(sshArgv.join(' '));
  const targets: EchoTarget[] = [];
  try {
    targets.push(await clientTarget(ECHO_TETHER, client));
    targets.push(commandTarget(ECHO_SSH, sshArgv));
    targets.push(
      commandTarget(ECHO_SSH_MUX, ['ssh', '-tt', ...rig.sshOptions, ...muxOptions, host.alias, RAW_CAT]),
    );
    const values = await sampleInRounds(targets, {
      samples: echoSamples,
      warmupSamples: echoWarmupSamples,
      sampleTimeoutMs,
    });
    for (const target of targets) {
      const list = values.get(target.name)!;
      recorder.ok(target.name, 'ms', list, { 'p99 ms': [quantile(list, 0.99)] });
      context.log(`  ${target.name}: p50 ${quantile(list, 0.5).toFixed(3)} ms`);
    }
  } finally {
    for (const target of targets) await target.close();
  }
}

async function measureOutput(
  context: BenchContext,
  recorder: CaseRecorder,
  rig: SshTestRig,
  host: SshdHost,
  client: ExecServerClientApi,
  muxOptions: string[],
): Promise<void> {
  const { outputBytes, outputRuns, runTimeoutMs } = context.config.ssh;
  const throughput = (ms: number): number => mbPerSecond(outputBytes, ms);
  const sshOutput = async (): Promise<number> => {
    const args = ['head', '-c', String(outputBytes), '/dev/zero'];
    const { ms, bytes } = await timedSsh(rig, host, args, muxOptions);
    if (bytes !== outputBytes) throw new Error(`ssh delivered ${bytes} of ${outputBytes} bytes`);
    return ms;
  };
  const plainOutput = async (): Promise<number> => {
    const { ms, bytes } = await timedSsh(rig, host, ['head', '-c', String(outputBytes), '/dev/zero']);
    if (bytes !== outputBytes) throw new Error(`ssh delivered ${bytes} of ${outputBytes} bytes`);
    return ms;
  };
  const cliOutput = async (bytes: number): Promise<number> => {
    const args = [
      'run',
      '--ssh',
      host.alias,
      ...rig.sshOptions,
      '--',
      'head',
      '-c',
      String(bytes),
      '/dev/zero',
    ];
    const run = await runTetherCommand(args, runTimeoutMs);
    if (run.bytes !== bytes) throw new Error(`tether run delivered ${run.bytes} of ${bytes} bytes`);
    return run.ms;
  };
  recorder.command(`tether run --ssh ${host.alias} ${rig.sshOptions.join(' ')} -- head -c N /dev/zero`);
  // One small un-measured run each, so none pays a first-time cost inside the figures (the CLI's
  // starts the shared master it reuses from then on).
  await timedOutput(client, 64 * 1024);
  await timedSsh(rig, host, ['head', '-c', '65536', '/dev/zero'], muxOptions);
  await cliOutput(64 * 1024);
  await timedSsh(rig, host, ['head', '-c', '65536', '/dev/zero']);
  await interleaved(context, recorder, outputRuns, 'MB/s', [
    {
      name: OUTPUT_TETHER,
      once: async () =>
        throughput(await withTimeout(timedOutput(client, outputBytes), runTimeoutMs, OUTPUT_TETHER)),
    },
    {
      name: OUTPUT_SSH,
      once: async () => throughput(await withTimeout(sshOutput(), runTimeoutMs, OUTPUT_SSH)),
    },
    { name: OUTPUT_RUN, once: async () => throughput(await cliOutput(outputBytes)) },
    {
      name: OUTPUT_SSH_PLAIN,
      once: async () => throughput(await withTimeout(plainOutput(), runTimeoutMs, OUTPUT_SSH_PLAIN)),
    },
  ]);
}

const THROUGH_THE_DAEMON =
  "output passes the host daemon (its reader thread and the main thread's garbage collection are the largest " +
  'cost), and each run starts Node and the CLI before ssh; see docs/ssh.md, How fast';

function judge(recorder: CaseRecorder): void {
  const times = (v: number): string => `${v.toFixed(2)}×`;
  // Cold connect and output are informational: their ratios are reported, not judged.
  recorder.ratio('cold connect / ssh true', COLD, SSH_TRUE);
  const warm = recorder.ratio('warm connect / ssh true', WARM, `${SSH_TRUE} (warm runs)`);
  recorder.goal('warm connect ≤ 2× ssh host true (same run)', warm, (v) => v <= 2, times);
  const reused = recorder.ratio(
    'warm connect over a reused master / ssh true',
    WARM_SHARED,
    `${SSH_TRUE} (warm runs)`,
  );
  recorder.goal(
    'warm connect over a reused master ≤ 1.2× ssh host true (same run)',
    reused,
    (v) => v <= 1.2,
    times,
  );
  const echo = recorder.ratio('tether echo p50 / ssh -tt p50', ECHO_TETHER, ECHO_SSH);
  recorder.ratio('ssh -tt through a master p50 / ssh -tt p50', ECHO_SSH_MUX, ECHO_SSH);
  recorder.goal(
    'keystroke echo p50 ≤ 1.2× ssh -tt p50 (same run)',
    echo,
    (v) => v <= 1.2,
    times,
    `${KEYSTROKE_MESSAGES}; over SSH the echo also crosses the host daemon's socket and the client's end of the master's forward`,
  );
  const p99Of = (name: string): number | null => recorder.get(name)?.extra?.['p99 ms'] ?? null;
  const tetherP99 = p99Of(ECHO_TETHER);
  const sshP99 = p99Of(ECHO_SSH);
  recorder.goal(
    'keystroke echo p99 ≤ 2× ssh -tt p99 (same run)',
    tetherP99 !== null && sshP99 !== null && sshP99 > 0 ? tetherP99 / sshP99 : null,
    (v) => v <= 2,
    times,
    'the tail is waiting for a CPU: the echo crosses five processes here (client, ssh, sshd, the daemon and its reader thread, cat) on 2 cores shared with the bench, ssh -tt three, and the two Node processes add garbage collection; see docs/exec-server.md, Keystroke latency',
  );
  recorder.ratio('tether output / ssh output', OUTPUT_TETHER, OUTPUT_SSH);
  const run = recorder.ratio('tether run --ssh output / ssh host head output', OUTPUT_RUN, OUTPUT_SSH_PLAIN);
  recorder.goal(
    'tether run --ssh output ≥ 0.9× ssh host cmd (same run)',
    run,
    (v) => v >= 0.9,
    times,
    THROUGH_THE_DAEMON,
  );
}

async function run(context: BenchContext, recorder: CaseRecorder): Promise<void> {
  const { coldRuns, warmRuns, echoSamples, outputBytes, outputRuns, connectTimeoutMs } = context.config.ssh;
  recorder.setup(
    `One ssh config, real sshd on 127.0.0.1, host with node. ${coldRuns} cold connect(s), each to a fresh ` +
      `host HOME (the server is uploaded and installed), and ${warmRuns} warm connect(s), timed from creating ` +
      'the client until it is connected, with a master of their own (the app) and over the shared master ' +
      'a `tether run --ssh` reuses (the CLI), each beside one `ssh host true`; ' +
      `${echoSamples} keystroke echo samples per side (pty \`cat\`, p50); ` +
      `${outputRuns} run(s) of ${outputBytes / 1_048_576} MiB from \`head -c N /dev/zero\` without a pty, through ` +
      'this process’s client (against ssh over a master of its own) and through `tether run --ssh` ' +
      '(its own process, spawn to exit, against a plain `ssh host head …`).',
  );
  if (!existsSync(SSHD_BINARY)) {
    recorder.missing(
      SSH_ENVIRONMENT_ROW,
      'ms',
      'skipped',
      `${SSHD_BINARY} is missing (apt-get install openssh-server)`,
    );
    judge(recorder);
    return;
  }
  const rig = new SshTestRig();
  let client: RemoteExecServerClient | null = null;
  let reference: Awaited<ReturnType<typeof referenceMaster>> | null = null;
  try {
    recorder.command(
      `${SSHD_BINARY} -D -e -f <temp sshd_config> (SetEnv HOME, TETHER_RUN_DIR temp); ssh ${rig.sshOptions.join(' ')}`,
    );
    context.log('ssh connects');
    const host = await measureConnects(context, recorder, rig, connectTimeoutMs);
    client = (await timedConnect(rig, host, connectTimeoutMs)).client;
    reference = await referenceMaster(rig, host, connectTimeoutMs);
    context.log('ssh keystroke echo');
    await measureEcho(context, recorder, rig, host, client, reference.muxOptions);
    context.log('ssh output throughput');
    await measureOutput(context, recorder, rig, host, client, reference.muxOptions);
  } finally {
    await reference?.stop();
    await client?.close();
    // Stops every sshd, its sessions (the shared master's connection with them), and the daemons
    // started on the hosts.
    await rig.close();
  }
  judge(recorder);
}

export const sshCase: BenchCase = {
  id: 'ssh',
  title: 'SSH environments against OpenSSH: connect, keystroke echo, output',
  run,
};
