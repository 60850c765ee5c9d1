// Case: what flow control costs `tether run`. `tether run -- head -c N /dev/zero` through Tether's
// ws server with its output window (the default) and without one (`--output-window 0`), and through
// codex's server (no flow control there; JSON with base64, as Tether's server speaks it too here),
// taking turns run by run so the machine's noise hits them alike. Its stdout goes to a pipe the bench
// drains at once: a consumer that keeps up, where flow control must cost nothing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { BenchCase, BenchContext } from '../lib/bench-case';
import { withTimeout } from '../lib/child';
import { cpuTimeMs } from '../lib/proc-stats';
import type { CaseRecorder } from '../lib/results';
import { elapsedMs, mbPerSecond } from '../lib/stats';
import { startServer, TETHER_BIN, type StartedServer } from '../../support/exec-servers';

/** GNU time reports the CPU time of the `tether run` process it waits for; without it, no client CPU. */
const GNU_TIME = '/usr/bin/time';
const CPU_LINE = /^TETHER_RUN_CPU ([\d.]+) ([\d.]+)$/m;

interface Contender {
  name: string;
  server: StartedServer;
  /** `tether run` flags between `run` and `--`. */
  args: string[];
}

interface RunResult {
  ms: number;
  /** CPU ms of `tether run` (user + system), null without GNU time. */
  clientCpuMs: number | null;
  serverCpuMs: number | null;
}

/** One `tether run … -- head -c bytes /dev/zero` to exit, every stdout byte counted. */
function runOnce(contender: Contender, bytes: number): Promise<RunResult> {
  const argv = [
    process.execPath,
    TETHER_BIN,
    'run',
    '--server',
    contender.server.url!,
    ...(contender.server.tokenFile ? ['--token-file', contender.server.tokenFile] : []),
    ...contender.args,
    '--',
    'head',
    '-c',
    String(bytes),
    '/dev/zero',
  ];
  const timed = existsSync(GNU_TIME) ? [GNU_TIME, '-f', 'TETHER_RUN_CPU %U %S', ...argv] : argv;
  const serverPid = contender.server.child.pid!;
  const serverBefore = cpuTimeMs(serverPid);
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(timed[0]!, timed.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let received = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (received += chunk.length));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = elapsedMs(started);
      const serverAfter = cpuTimeMs(serverPid);
      if (code !== 0 || received !== bytes) {
        reject(
          new Error(`tether run exited with ${code} after ${received} of ${bytes} bytes: ${stderr.trim()}`),
        );
        return;
      }
      const cpu = CPU_LINE.exec(stderr);
      resolve({
        ms,
        clientCpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : null,
        serverCpuMs: serverBefore !== null && serverAfter !== null ? serverAfter - serverBefore : null,
      });
    });
  });
}

async function run(context: BenchContext, recorder: CaseRecorder): Promise<void> {
  const { bytes, warmupBytes, runs, runTimeoutMs } = context.config.runOutput;
  recorder.setup(
    `tether run -- head -c ${bytes} /dev/zero, ${runs} interleaved run(s) per contender after a warm-up; ` +
      'MB/s = 10^6 bytes of output per second of wall time of the whole command (start-up and ' +
      'connection included), its stdout drained at once. CPU = user + system ms of `tether run` ' +
      `(GNU time${existsSync(GNU_TIME) ? '' : ', missing here: not measured'}) and of the server.`,
  );
  const servers: StartedServer[] = [];
  try {
    const tether = await startServer('tether', 'ws');
    servers.push(tether);
    const codex = await startServer('codex', 'ws');
    servers.push(codex);
    recorder.command('tether exec-server --listen ws://127.0.0.1:0 --ws-auth capability-token …');
    recorder.command('codex exec-server --listen ws://127.0.0.1:0');
    const contenders: Contender[] = [
      { name: 'tether server · flow control', server: tether, args: [] },
      { name: 'tether server · no flow control', server: tether, args: ['--output-window', '0'] },
      { name: 'codex server', server: codex, args: [] },
    ];
    for (const contender of contenders) {
      recorder.command(`tether run --server URL ${contender.args.join(' ')} -- head -c N /dev/zero`);
      if (warmupBytes > 0) {
        await withTimeout(runOnce(contender, warmupBytes), runTimeoutMs, `${contender.name} warm-up`);
      }
    }
    const results = new Map<string, RunResult[]>(contenders.map((c) => [c.name, []]));
    const failed = new Set<string>();
    for (let round = 0; round < runs; round++) {
      for (const contender of contenders) {
        if (failed.has(contender.name)) continue;
        try {
          const result = await withTimeout(runOnce(contender, bytes), runTimeoutMs, contender.name);
          results.get(contender.name)!.push(result);
        } catch (error) {
          failed.add(contender.name);
          recorder.missing(contender.name, 'MB/s', 'failed', (error as Error).message);
          context.log(`  ${contender.name}: failed: ${(error as Error).message}`);
        }
      }
    }
    for (const contender of contenders) {
      if (failed.has(contender.name)) continue;
      const list = results.get(contender.name)!;
      const clientCpu = list.flatMap((r) => (r.clientCpuMs === null ? [] : [r.clientCpuMs]));
      const serverCpu = list.flatMap((r) => (r.serverCpuMs === null ? [] : [r.serverCpuMs]));
      recorder.ok(
        contender.name,
        'MB/s',
        list.map((r) => mbPerSecond(bytes, r.ms)),
        { 'tether run CPU ms': clientCpu, 'server CPU ms': serverCpu },
      );
      if (clientCpu.length === list.length && serverCpu.length === list.length) {
        recorder.ok(
          `CPU · ${contender.name}`,
          'ms',
          list.map((r) => r.clientCpuMs! + r.serverCpuMs!),
        );
      }
      context.log(
        `  ${contender.name}: ${list.map((r) => mbPerSecond(bytes, r.ms).toFixed(1)).join(', ')} MB/s`,
      );
    }
  } finally {
    for (const server of servers) await server.stop();
  }

  const onOff = recorder.ratio(
    'flow control on/off (tether server)',
    'tether server · flow control',
    'tether server · no flow control',
  );
  recorder.goal(
    'tether run with flow control ≥ 0.95× without it (Tether server, consumer keeps up)',
    onOff,
    (v) => v >= 0.95,
    (v) => `${v.toFixed(2)}×`,
  );
  const viaServers = recorder.ratio(
    'tether server / codex server (tether run, JSON)',
    'tether server · flow control',
    'codex server',
  );
  recorder.goal(
    "tether run via Tether's server ≥ 1× via codex's (JSON frames)",
    viaServers,
    (v) => v >= 1,
    (v) => `${v.toFixed(2)}×`,
  );
  recorder.ratio(
    'CPU flow control on/off (tether run + server)',
    'CPU · tether server · flow control',
    'CPU · tether server · no flow control',
  );
}

export const runOutputCase: BenchCase = {
  id: 'run-output',
  title: 'tether run output and flow control',
  run,
};
