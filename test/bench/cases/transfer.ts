// Case: file transfers. `tether cp` through Tether's ws server against `scp` to a throwaway sshd
// (test/support/sshd.ts), each through its own delaying proxy with the same RTT: one big file up
// and down, and (at the first RTT, the plain link in a full run) a folder of many small files up
// and down. `tether cp --ssh` to that same sshd, through scp's own proxy, is the SSH environment's
// row: its bytes go over the SSH connection to the Tether daemon's socket on the host (the direct
// link; the bridge where sshd refuses socket forwarding), as an SSH environment's do. Each run spawns the command and times it to exit, start-up and connection included.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchCase, BenchContext } from '../lib/bench-case';
import { withTimeout } from '../lib/child';
import type { CaseRecorder } from '../lib/results';
import { elapsedMs, mbPerSecond } from '../lib/stats';
import { startServer, TETHER_BIN, type StartedServer } from '../../support/exec-servers';
import { FaultProxy } from '../../support/fault-proxy';
import { SSHD_BINARY, SshTestRig } from '../../support/sshd';

const WRITE_CHUNK = 16 * 1024 * 1024;
/**
 * What each proxy direction may hold. The default (1 MiB) caps a 20 ms one-way delay at about
 * 50 MB/s, scp's own window at 40 ms RTT: the proxy would be the narrowest window on the path and
 * hide the difference being measured. This plays a long link that is not itself the limit.
 */
const PROXY_HOLD_BYTES = 256 * 1024 * 1024;
const SCP_HOST = 'bench-scp';
/** Goals of issue #21, each against scp in the same run. */
const PLAIN_LINK_TARGET = 1;
const DELAYED_LINK_TARGET = 3;
const SSH_ENVIRONMENT_TARGET = 0.9;

/** `ssh -V` prints its version on stderr. */
function sshVersion(): string {
  const result = spawnSync('ssh', ['-V'], { encoding: 'utf8' });
  return (result.stderr || result.stdout || 'unknown').trim();
}

/** Runs argv to exit and resolves with its wall time in ms; a non-zero exit is a failure. */
function timed(argv: string[]): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (stderr = (stderr + d).slice(-2000)));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(elapsedMs(started));
      else reject(new Error(`${path.basename(argv[0]!)} exited with ${code}: ${stderr.trim()}`));
    });
  });
}

function writeRandomFile(file: string, bytes: number): void {
  writeFileSync(file, '');
  for (let at = 0; at < bytes; at += WRITE_CHUNK) {
    writeFileSync(file, randomBytes(Math.min(WRITE_CHUNK, bytes - at)), { flag: 'a' });
  }
}

interface Contender {
  name: string;
  argv: () => string[];
  /** What must exist afterwards, and its size (a file) or null (a folder). */
  result: { path: string; bytes: number | null };
}

async function measure(
  context: BenchContext,
  recorder: CaseRecorder,
  contenders: Contender[],
  unit: 'MB/s' | 'files/s',
  amount: number,
): Promise<void> {
  const { runs, runTimeoutMs } = context.config.transfer;
  const values = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  const failed = new Set<string>();
  // Contenders take turns run by run, so the machine's noise hits them alike.
  for (let run = 0; run < runs; run++) {
    for (const contender of contenders) {
      if (failed.has(contender.name)) continue;
      rmSync(contender.result.path, { recursive: true, force: true });
      try {
        const ms = await withTimeout(timed(contender.argv()), runTimeoutMs, contender.name);
        const landed = statSync(contender.result.path);
        if (contender.result.bytes !== null && landed.size !== contender.result.bytes) {
          throw new Error(`copied ${landed.size} of ${contender.result.bytes} bytes`);
        }
        values.get(contender.name)!.push(unit === 'MB/s' ? mbPerSecond(amount, ms) : (amount * 1000) / ms);
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

/** Why an SSH environment's copy may stay under its goal (docs/files.md, Measured). */
const THROUGH_THE_HOST_DAEMON =
  "its blocks cross one process more than scp's (the host daemon, in Node, besides ssh and sshd; scp's sftp-server is C), and on this 2-core machine every process on the path waits for its turn on the CPU, so the copy goes at its share of it; see docs/files.md, Measured";
/** Why a plain-link copy may fall under scp (docs/files.md, Measured). */
const CPU_LIKE_SCP =
  'over ws a copy needs about the CPU scp needs (client, server and proxy against scp, ssh, sshd and sftp-server), so on this shared 2-core machine the ratio sits near 1 and moves with the load; see docs/files.md, Measured';
/** Why the 40 ms goal may not be met here (docs/files.md, Measured). */
const ANSWERS_WAIT_FOR_THE_CPU =
  "at 40 ms RTT scp is held by its SSH window (about 25-30 MB/s here), but Tether's window is not its limit: it holds about 10 MiB in flight, and with 256 MiB instead of 64 the copy went the same speed (about 75 MB/s); its answers wait 130-480 ms instead of 40 behind the CPU at the ends, which the client, the delaying proxy and the server share on 2 cores; see docs/files.md, Measured";

function compare(
  recorder: CaseRecorder,
  label: string,
  tether: string,
  scp: string,
  target: number,
  whyNot?: string,
): void {
  const ratio = recorder.ratio(`tether cp/scp · ${label}`, tether, scp);
  recorder.goal(
    `tether cp ≥ ${target}× scp (${label})`,
    ratio,
    (v) => v >= target,
    (v) => `${v.toFixed(2)}×`,
    whyNot,
  );
}

async function run(context: BenchContext, recorder: CaseRecorder): Promise<void> {
  const { bytes, delayedBytes, rttsMs, smallFiles, smallFileBytes, runs } = context.config.transfer;
  // The plain link gets the full size; a delayed one a smaller file, which decides the
  // same (each run still lasts seconds, start-up a small part of it) in a quarter of the time.
  const sizeAt = (rtt: number): number => (rtt === 0 ? bytes : delayedBytes);
  const mib = (n: number): string => `${n / 1_048_576} MiB`;
  recorder.setup(
    `${mib(bytes)} of random bytes each way on the plain link, ${mib(delayedBytes)} over a delayed one, ` +
      `and (on the first link) a folder of ${smallFiles} × ${smallFileBytes} B files each way; ` +
      `${runs} interleaved run(s) each, each tool through its own delaying proxy ` +
      `(RTT ${rttsMs.join(', ')} ms, up to ${PROXY_HOLD_BYTES / 1_048_576} MiB held per direction); ` +
      'wall time of the whole command, start-up and connection included. The delayed link and the ' +
      'small files are trimmed (from 256 MiB and 2,000 files) to keep the case short; each of ' +
      'their runs still lasts seconds, and their ratios stayed as far from the goals.',
  );
  if (!existsSync(SSHD_BINARY)) {
    recorder.missing('scp', 'MB/s', 'skipped', `${SSHD_BINARY} is missing (apt-get install openssh-server)`);
    return;
  }
  const rig = new SshTestRig();
  let server: StartedServer | undefined;
  let tetherProxy: FaultProxy | undefined;
  const root = path.join(context.workDir, 'transfer');
  const local = path.join(root, 'local');
  const remote = path.join(root, 'remote');
  mkdirSync(local, { recursive: true });
  mkdirSync(remote, { recursive: true });
  try {
    const host = await rig.startHost({
      alias: SCP_HOST,
      proxied: true,
      proxyOptions: { pipeHighWaterBytes: PROXY_HOLD_BYTES },
    });
    rig.trustHost(host);
    const sshProxy = host.proxy!;
    server = await startServer('tether', 'ws');
    tetherProxy = await FaultProxy.forUrl(server.url!, { pipeHighWaterBytes: PROXY_HOLD_BYTES });
    recorder.command(
      `tether exec-server --listen ws://127.0.0.1:0 (behind the proxy); scp ${rig.sshOptions.join(' ')} ` +
        `to ${SSHD_BINARY} (${sshVersion()}); tether cp --ssh ${SCP_HOST} ${rig.sshOptions.join(' ')} ` +
        "to the same sshd, through scp's proxy",
    );
    const bigFile = (size: number): string => `big-${size}.bin`;
    for (const size of new Set(rttsMs.map(sizeAt))) {
      writeRandomFile(path.join(local, bigFile(size)), size);
      writeRandomFile(path.join(remote, bigFile(size)), size);
    }
    const folder = path.join(local, 'small');
    const remoteFolder = path.join(remote, 'small');
    for (const dir of [folder, remoteFolder]) {
      mkdirSync(dir);
      for (let i = 0; i < smallFiles; i++)
        writeFileSync(path.join(dir, `f${i}`), randomBytes(smallFileBytes));
    }
    const proxy = tetherProxy;
    const tetherCp = (...args: string[]): string[] => [
      process.execPath,
      TETHER_BIN,
      'cp',
      '-q',
      '--server',
      proxy.url(),
      '--token-file',
      server!.tokenFile!,
      ...args,
    ];
    // The host's own config and alias, so ssh's bytes take scp's proxy; the CLI keeps a shared
    // master for the host, as it does between two copies a user makes.
    const tetherCpSsh = (...args: string[]): string[] => [
      process.execPath,
      TETHER_BIN,
      'cp',
      '-q',
      '--ssh',
      SCP_HOST,
      ...rig.sshOptions,
      ...args,
    ];
    const scp = (...args: string[]): string[] => ['scp', '-q', ...rig.sshOptions, ...args];
    const onScpHost = (remotePath: string): string => `${SCP_HOST}:${remotePath}`;
    // Unmeasured: the first copy over SSH installs Tether's server on the host and starts its daemon.
    const warmUp = path.join(local, 'warm-up.bin');
    writeFileSync(warmUp, randomBytes(4096));
    await withTimeout(
      timed(tetherCpSsh(warmUp, `remote:${path.join(remote, 'warm-up.bin')}`)),
      context.config.transfer.runTimeoutMs,
      'tether cp --ssh (installing the server)',
    );
    for (const rtt of rttsMs) {
      for (const p of [tetherProxy, sshProxy]) p.setLatency(rtt / 2);
      const at = `${rtt} ms RTT`;
      const size = sizeAt(rtt);
      const big = path.join(local, bigFile(size));
      const remoteBig = path.join(remote, bigFile(size));
      context.log(`transfer at ${at}`);
      await measure(
        context,
        recorder,
        [
          {
            name: `tether cp · upload · ${at}`,
            argv: () => tetherCp(big, `remote:${path.join(remote, 'up-tether.bin')}`),
            result: { path: path.join(remote, 'up-tether.bin'), bytes: size },
          },
          {
            name: `scp · upload · ${at}`,
            argv: () => scp(big, onScpHost(path.join(remote, 'up-scp.bin'))),
            result: { path: path.join(remote, 'up-scp.bin'), bytes: size },
          },
          {
            name: `tether cp · download · ${at}`,
            argv: () => tetherCp(`remote:${remoteBig}`, path.join(local, 'down-tether.bin')),
            result: { path: path.join(local, 'down-tether.bin'), bytes: size },
          },
          {
            name: `scp · download · ${at}`,
            argv: () => scp(onScpHost(remoteBig), path.join(local, 'down-scp.bin')),
            result: { path: path.join(local, 'down-scp.bin'), bytes: size },
          },
          {
            name: `tether cp --ssh · upload · ${at}`,
            argv: () => tetherCpSsh(big, `remote:${path.join(remote, 'up-tether-ssh.bin')}`),
            result: { path: path.join(remote, 'up-tether-ssh.bin'), bytes: size },
          },
          {
            name: `tether cp --ssh · download · ${at}`,
            argv: () => tetherCpSsh(`remote:${remoteBig}`, path.join(local, 'down-tether-ssh.bin')),
            result: { path: path.join(local, 'down-tether-ssh.bin'), bytes: size },
          },
        ],
        'MB/s',
        size,
      );
      const target = rtt === 0 ? PLAIN_LINK_TARGET : DELAYED_LINK_TARGET;
      for (const direction of ['upload', 'download']) {
        compare(
          recorder,
          `${direction} · ${at}`,
          `tether cp · ${direction} · ${at}`,
          `scp · ${direction} · ${at}`,
          target,
          rtt === 0 ? CPU_LIKE_SCP : ANSWERS_WAIT_FOR_THE_CPU,
        );
        compare(
          recorder,
          `SSH environment · ${direction} · ${at}`,
          `tether cp --ssh · ${direction} · ${at}`,
          `scp · ${direction} · ${at}`,
          SSH_ENVIRONMENT_TARGET,
          THROUGH_THE_HOST_DAEMON,
        );
      }
      if (rtt !== rttsMs[0]) continue;
      const many = `${smallFiles} files`;
      await measure(
        context,
        recorder,
        [
          {
            name: `tether cp -r · ${many} up · ${at}`,
            argv: () => tetherCp('-r', folder, `remote:${path.join(remote, 'small-tether')}`),
            result: { path: path.join(remote, 'small-tether'), bytes: null },
          },
          {
            name: `scp -r · ${many} up · ${at}`,
            argv: () => scp('-r', folder, onScpHost(path.join(remote, 'small-scp'))),
            result: { path: path.join(remote, 'small-scp'), bytes: null },
          },
          {
            name: `tether cp -r · ${many} down · ${at}`,
            argv: () => tetherCp('-r', `remote:${remoteFolder}`, path.join(local, 'small-tether')),
            result: { path: path.join(local, 'small-tether'), bytes: null },
          },
          {
            name: `scp -r · ${many} down · ${at}`,
            argv: () => scp('-r', onScpHost(remoteFolder), path.join(local, 'small-scp')),
            result: { path: path.join(local, 'small-scp'), bytes: null },
          },
        ],
        'files/s',
        smallFiles,
      );
      for (const direction of ['up', 'down']) {
        compare(
          recorder,
          `${smallFiles} small files ${direction} · ${at}`,
          `tether cp -r · ${many} ${direction} · ${at}`,
          `scp -r · ${many} ${direction} · ${at}`,
          PLAIN_LINK_TARGET,
        );
      }
    }
  } finally {
    await tetherProxy?.close();
    await server?.stop();
    await rig.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export const transferCase: BenchCase = {
  id: 'transfer',
  title: 'File transfers: tether cp against scp through a delaying proxy',
  run,
};
