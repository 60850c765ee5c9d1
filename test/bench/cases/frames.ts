// Output throughput with binary data frames (issue #13): `tether run -- head -c N /dev/zero` end to
// end over ws, through Tether's server (binary frames) and through codex's (JSON+base64), against
// the ceiling of a raw binary WebSocket stream of the same bytes along the same path (the same
// program's pipe reads relayed by one process to a client process that writes them to its stdout;
// raw-relay-server.ts); and a plain codex-protocol client (no Tether capability) through both
// servers. Every run measures each side once, interleaved.
import type { BenchCase, BenchContext } from '../lib/bench-case';
import { firstLine, startTsHelper, withTimeout } from '../lib/child';
import { writerArgv } from '../lib/payload';
import { runPlainClient } from '../lib/plain-client';
import { cpuTimeMs } from '../lib/proc-stats';
import type { CaseRecorder } from '../lib/results';
import { PROCESS_CWD } from '../lib/sides';
import { mbPerSecond } from '../lib/stats';
import { runRawRelayClient, runTetherCli } from '../lib/tether-run';
import { serverCommand, startServer, type StartedServer } from '../../support/exec-servers';

const TETHER_RUN_TETHER = 'tether run → tether · ws · binary frames';
const TETHER_RUN_CODEX = 'tether run → codex · ws';
const CEILING = 'raw binary ws stream ceiling';
const PLAIN_TETHER = 'plain codex client → tether · ws';
const PLAIN_CODEX = 'plain codex client → codex · ws';

interface Side {
  name: string;
  /** The server whose CPU is read around each run, if any. */
  serverPid: number | null;
  run(bytes: number, timeoutMs: number): Promise<{ bytes: number; ms: number }>;
}

async function run(context: BenchContext, recorder: CaseRecorder): Promise<void> {
  const { bytes, warmupBytes, runs, runTimeoutMs } = context.config.throughput;
  const argv = (n: number): string[] => writerArgv('zeros', n, '');
  recorder.setup(
    `${(bytes / 1048576).toFixed(bytes < 1048576 ? 2 : 0)} MiB of zeros per run, ${runs} measured run(s) after a ` +
      'warm-up, the sides interleaved within each run. `tether run` is timed from spawning the CLI to its exit ' +
      '(its stdout read by the bench); the plain client from process/start to process/closed. ' +
      'Binary ceiling: the same program, each read of its stdout pipe (up to 64 KiB) relayed as one binary ' +
      'Node ws message to a client process that writes it to its stdout, timed like `tether run`; no JSON, ' +
      'no protocol.',
  );
  recorder.command(`node bin/tether.js run --server URL [--token-file F] -- ${argv(bytes).join(' ')}`);

  const servers: StartedServer[] = [];
  const helper = startTsHelper('raw-relay-server.ts', []);
  try {
    const tether = await startServer('tether', 'ws');
    servers.push(tether);
    const codex = await startServer('codex', 'ws');
    servers.push(codex);
    for (const server of servers)
      recorder.command(
        `${Object.values(serverCommand(server.impl)).flat().join(' ')} --listen ws://127.0.0.1:0`,
      );
    const ceilingUrl = await firstLine(helper);
    const sides: Side[] = [
      {
        name: TETHER_RUN_TETHER,
        serverPid: tether.child.pid!,
        run: (n, t) => runTetherCli(tether.url!, tether.tokenFile, argv(n), t),
      },
      {
        name: TETHER_RUN_CODEX,
        serverPid: codex.child.pid!,
        run: (n, t) => runTetherCli(codex.url!, undefined, argv(n), t),
      },
      {
        name: CEILING,
        serverPid: helper.child.pid!,
        run: (n, t) => runRawRelayClient(ceilingUrl, argv(n), t),
      },
      {
        name: PLAIN_TETHER,
        serverPid: tether.child.pid!,
        run: (n) => runPlainClient(tether.url!, tether.authHeaders(), argv(n), PROCESS_CWD),
      },
      {
        name: PLAIN_CODEX,
        serverPid: codex.child.pid!,
        run: (n) => runPlainClient(codex.url!, {}, argv(n), PROCESS_CWD),
      },
    ];
    const samples = new Map<string, { mbps: number[]; cpuMs: number[]; lost: string[] }>();
    const failed = new Map<string, string>();
    for (const side of sides) samples.set(side.name, { mbps: [], cpuMs: [], lost: [] });
    for (let round = -1; round < runs; round += 1) {
      for (const side of sides) {
        if (failed.has(side.name)) continue;
        const n = round < 0 ? warmupBytes : bytes;
        const before = side.serverPid === null ? null : cpuTimeMs(side.serverPid);
        try {
          const result = await withTimeout(side.run(n, runTimeoutMs), runTimeoutMs, side.name);
          if (round < 0) continue;
          const after = side.serverPid === null ? null : cpuTimeMs(side.serverPid);
          const entry = samples.get(side.name)!;
          entry.mbps.push(mbPerSecond(bytes, result.ms));
          if (before !== null && after !== null) entry.cpuMs.push(after - before);
          if (result.bytes !== bytes) entry.lost.push(`received ${result.bytes} of ${bytes} bytes`);
          context.log(`  ${side.name}: ${mbPerSecond(bytes, result.ms).toFixed(1)} MB/s`);
        } catch (error) {
          failed.set(side.name, (error as Error).message);
          context.log(`  ${side.name}: failed: ${(error as Error).message}`);
        }
      }
    }
    for (const side of sides) {
      const why = failed.get(side.name);
      if (why !== undefined) {
        recorder.missing(side.name, 'MB/s', 'failed', why);
        continue;
      }
      const { mbps, cpuMs, lost } = samples.get(side.name)!;
      const note = lost.length > 0 ? `output lost: ${lost.join('; ')}` : undefined;
      recorder.ok(side.name, 'MB/s', mbps, cpuMs.length > 0 ? { 'server CPU ms': cpuMs } : undefined, note);
      if (note) recorder.note(`${side.name}: ${note}.`);
    }
  } finally {
    for (const server of servers) await server.stop();
    await helper.stop();
  }

  const times = (v: number): string => `${v.toFixed(2)}×`;
  const overCodex = recorder.ratio(
    'tether run: tether (binary) / codex',
    TETHER_RUN_TETHER,
    TETHER_RUN_CODEX,
  );
  recorder.goal(
    'tether run through Tether (binary frames) ≥ 1.5× codex (ws)',
    overCodex,
    (v) => v >= 1.5,
    times,
    'each run includes starting the CLI (Node, its bundle, connecting: 0.23–0.47 s measured here), the same on ' +
      'both sides and a third or more of a 128 MiB run, which pulls the ratio toward 1; Tether’s server used ' +
      'no more CPU per run than codex’s (docs/exec-server.md, Binary data frames)',
  );
  const ofCeiling = recorder.ratio(
    'tether run: tether (binary) / raw binary ws ceiling',
    TETHER_RUN_TETHER,
    CEILING,
  );
  recorder.goal(
    'tether run through Tether ≥ 0.7× a raw binary ws stream (the fair ceiling)',
    ofCeiling,
    (v) => v >= 0.7,
    times,
    "the server's CPU per run is still about three times the relay's: each read is copied once more into the " +
      'output ring, and every chunk becomes a notification on the main thread (docs/exec-server.md)',
  );
  const plain = recorder.ratio('plain codex client: tether / codex', PLAIN_TETHER, PLAIN_CODEX);
  recorder.goal(
    'a plain codex client gets ≥ 0.95× from Tether of what it gets from codex',
    plain,
    (v) => v >= 0.95,
    times,
    'every JSON chunk is one more base64 string (about 87 KB per 64 KiB) on the main thread before it is copied ' +
      'into a pooled buffer (docs/exec-server.md)',
  );
}

export const framesCase: BenchCase = { id: 'frames', title: 'Output throughput with binary frames', run };
