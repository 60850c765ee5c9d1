// Case 2, keystroke echo latency: one byte into a raw-mode tty `cat`, timed until it comes back, many
// samples. Tether client with Tether's server and with codex's, `ssh -tt` to a throwaway sshd, and
// node-pty reading the pty directly (the floor). Sides take turns in rounds so noise hits all alike.
import { existsSync } from 'node:fs';
import type { BenchCase, BenchContext } from '../lib/bench-case';
import {
  clientTarget,
  commandTarget,
  ptyTarget,
  RAW_CAT,
  ROUND_SAMPLES,
  sampleInRounds,
  type EchoTarget,
} from '../lib/echo-targets';
import type { CaseRecorder } from '../lib/results';
import { openSide, type Side } from '../lib/sides';
import { quantile } from '../lib/stats';
import { SSHD_BINARY, SshTestRig } from '../../support/sshd';

/** Why echo goals against ssh are not met (docs/exec-server.md, Keystroke latency). */
export const KEYSTROKE_MESSAGES =
  "a keystroke is three JSON-RPC messages (the write, its answer, the echo's notification), each decoded, validated and dispatched in JavaScript: about 0.3 ms of the server's main-thread CPU per key, plus the reader thread's hand-over and the client's own share, where ssh moves raw bytes in C; see docs/exec-server.md, Keystroke latency";

async function run(context: BenchContext, recorder: CaseRecorder): Promise<void> {
  const { samples, warmupSamples, sampleTimeoutMs } = context.config.echo;
  recorder.setup(
    `${samples} samples per side after ${warmupSamples} warm-up samples, taken in rounds of ${ROUND_SAMPLES} per ` +
      `side in turn; one byte written into \`sh -c '${RAW_CAT}'\` on a pty, timed with process.hrtime until ` +
      'the byte is read back. The figure is p50 (min..max); p99 beside it.',
  );
  const targets: EchoTarget[] = [];
  const sides: Side[] = [];
  let rig: SshTestRig | null = null;
  try {
    for (const [impl, transport] of [
      ['tether', 'ws'],
      ['codex', 'ws'],
      ['tether', 'stdio'],
    ] as const) {
      const side = await openSide(impl, transport);
      sides.push(side);
      recorder.command(side.commandLine);
      targets.push(await clientTarget(`tether client · ${impl} server · ${transport}`, side.client));
    }
    try {
      if (!existsSync(SSHD_BINARY))
        throw new Error(`${SSHD_BINARY} is missing (apt-get install openssh-server)`);
      rig = new SshTestRig();
      const host = await rig.startHost({ alias: 'bench-echo' });
      rig.trustHost(host);
      const argv = ['ssh', ...rig.sshOptions, '-tt', host.alias, RAW_CAT];
      recorder.command(argv.join(' '));
      targets.push(commandTarget('ssh -tt', argv));
    } catch (error) {
      recorder.missing('ssh -tt', 'ms', 'skipped', (error as Error).message);
      context.log(`  ssh skipped: ${(error as Error).message}`);
    }
    targets.push(ptyTarget());
    const values = await sampleInRounds(targets, { samples, warmupSamples, sampleTimeoutMs });
    for (const target of targets) {
      const list = values.get(target.name)!;
      recorder.ok(target.name, 'ms', list, { 'p99 ms': [quantile(list, 0.99)] });
      context.log(
        `  ${target.name}: p50 ${quantile(list, 0.5).toFixed(3)} ms, p99 ${quantile(list, 0.99).toFixed(3)} ms`,
      );
    }
  } finally {
    for (const target of targets) await target.close();
    for (const side of sides) await side.stop();
    await rig?.close();
  }

  const p99 = (name: string): number | null => recorder.get(name)?.extra?.['p99 ms'] ?? null;
  const tetherWs = 'tether client · tether server · ws';
  const ms = (v: number): string => `${v.toFixed(3)} ms`;
  recorder.goal(
    'Tether p50 ≤ 1 ms over ws',
    recorder.median(tetherWs),
    (v) => v <= 1,
    ms,
    KEYSTROKE_MESSAGES,
  );
  const codexP99 = p99('tether client · codex server · ws');
  recorder.goal(
    'Tether p99 ≤ 3 ms over ws',
    p99(tetherWs),
    (v) => v <= 3,
    ms,
    'the tail is waiting for a CPU (client, server and its reader thread, cat and the bench share 2 cores) ' +
      `and garbage collection in both Node processes; codex's server, same client, same run: p99 ${codexP99 === null ? '?' : ms(codexP99)}; see docs/exec-server.md, Keystroke latency`,
  );
  const vsSsh = recorder.ratio('tether ws p50 / ssh p50', tetherWs, 'ssh -tt');
  recorder.goal(
    'Tether p50 ≤ 1.5× ssh p50 (same run)',
    vsSsh,
    (v) => v <= 1.5,
    (v) => `${v.toFixed(2)}×`,
    KEYSTROKE_MESSAGES,
  );
  recorder.goal(
    'Tether client p50 < 1 ms against codex server (ws)',
    recorder.median('tether client · codex server · ws'),
    (v) => v < 1,
    ms,
  );
  recorder.ratio('tether ws p50 / node-pty direct p50', tetherWs, 'node-pty direct');
}

export const echoCase: BenchCase = { id: 'echo', title: 'Keystroke echo latency', run };
