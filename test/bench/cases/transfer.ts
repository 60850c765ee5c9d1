// Case: file transfers. `tether cp` through Tether's ws server against `scp` to a throwaway sshd,
// both through the same delaying proxy, at each RTT: one big file up and down, and (at the first
// RTT, the plain link in a full run) a folder of many small files up. Each run spawns the command and times it to exit.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchCase, BenchContext } from '../lib/bench-case';
import { withTimeout } from '../lib/child';
import type { CaseRecorder } from '../lib/results';
import { startSshd, type TempSshd } from '../lib/sshd';
import { elapsedMs, mbPerSecond } from '../lib/stats';
import { startServer, TETHER_BIN, type StartedServer } from '../../support/exec-servers';
import { FaultProxy } from '../../support/fault-proxy';

const WRITE_CHUNK = 16 * 1024 * 1024;

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

function compare(recorder: CaseRecorder, label: string, tether: string, scp: string, target: number): void {
  const ratio = recorder.ratio(`tether cp/scp · ${label}`, tether, scp);
  recorder.goal(
    `tether cp ≥ ${target}× scp (${label})`,
    ratio,
    (v) => v >= target,
    (v) => `${v.toFixed(2)}×`,
  );
}

async function run(context: BenchContext, recorder: CaseRecorder): Promise<void> {
  const { bytes, rttsMs, smallFiles, smallFileBytes, runs } = context.config.transfer;
  recorder.setup(
    `${bytes / 1_048_576} MiB of random bytes each way and a folder of ${smallFiles} × ${smallFileBytes} B ` +
      `files, ${runs} interleaved run(s) each, through one delaying proxy (RTT ${rttsMs.join(', ')} ms); ` +
      'wall time of the whole command, start-up and connection included.',
  );
  let sshd: TempSshd;
  try {
    sshd = await startSshd();
  } catch (error) {
    recorder.missing('scp', 'MB/s', 'skipped', (error as Error).message);
    return;
  }
  let server: StartedServer | undefined;
  const proxies: FaultProxy[] = [];
  const root = path.join(context.workDir, 'transfer');
  const local = path.join(root, 'local');
  const remote = path.join(root, 'remote');
  mkdirSync(local, { recursive: true });
  mkdirSync(remote, { recursive: true });
  try {
    server = await startServer('tether', 'ws');
    recorder.command(`tether exec-server --listen ws://127.0.0.1:0 (behind the proxy); ${sshd.version}`);
    const big = path.join(local, 'big.bin');
    writeRandomFile(big, bytes);
    const folder = path.join(local, 'small');
    mkdirSync(folder);
    for (let i = 0; i < smallFiles; i++)
      writeFileSync(path.join(folder, `f${i}`), randomBytes(smallFileBytes));
    writeRandomFile(path.join(remote, 'big.bin'), bytes);
    const tetherCp = (proxy: FaultProxy, ...args: string[]): string[] => [
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
    for (const rtt of rttsMs) {
      const tetherProxy = await FaultProxy.forUrl(server.url!);
      const sshProxy = await FaultProxy.start({ target: { host: '127.0.0.1', port: sshd.port } });
      proxies.push(tetherProxy, sshProxy);
      for (const proxy of [tetherProxy, sshProxy]) proxy.setLatency(rtt / 2);
      const scp = (...args: string[]): string[] => sshd.scpArgv(sshProxy.port, args);
      const at = `${rtt} ms RTT`;
      context.log(`transfer at ${at}`);
      await measure(
        context,
        recorder,
        [
          {
            name: `tether cp · upload · ${at}`,
            argv: () => tetherCp(tetherProxy, big, `remote:${path.join(remote, 'up-tether.bin')}`),
            result: { path: path.join(remote, 'up-tether.bin'), bytes },
          },
          {
            name: `scp · upload · ${at}`,
            argv: () => scp(big, sshd.remote(path.join(remote, 'up-scp.bin'))),
            result: { path: path.join(remote, 'up-scp.bin'), bytes },
          },
          {
            name: `tether cp · download · ${at}`,
            argv: () =>
              tetherCp(
                tetherProxy,
                `remote:${path.join(remote, 'big.bin')}`,
                path.join(local, 'down-tether.bin'),
              ),
            result: { path: path.join(local, 'down-tether.bin'), bytes },
          },
          {
            name: `scp · download · ${at}`,
            argv: () => scp(sshd.remote(path.join(remote, 'big.bin')), path.join(local, 'down-scp.bin')),
            result: { path: path.join(local, 'down-scp.bin'), bytes },
          },
        ],
        'MB/s',
        bytes,
      );
      const target = rtt === 0 ? 1 : 2;
      for (const direction of ['upload', 'download']) {
        compare(
          recorder,
          `${direction} · ${at}`,
          `tether cp · ${direction} · ${at}`,
          `scp · ${direction} · ${at}`,
          target,
        );
      }
      if (rtt !== rttsMs[0]) continue;
      await measure(
        context,
        recorder,
        [
          {
            name: `tether cp -r · ${smallFiles} files up · ${at}`,
            argv: () => tetherCp(tetherProxy, '-r', folder, `remote:${path.join(remote, 'small-tether')}`),
            result: { path: path.join(remote, 'small-tether'), bytes: null },
          },
          {
            name: `scp -r · ${smallFiles} files up · ${at}`,
            argv: () => scp('-r', folder, sshd.remote(path.join(remote, 'small-scp'))),
            result: { path: path.join(remote, 'small-scp'), bytes: null },
          },
        ],
        'files/s',
        smallFiles,
      );
      compare(
        recorder,
        `${smallFiles} small files up · ${at}`,
        `tether cp -r · ${smallFiles} files up · ${at}`,
        `scp -r · ${smallFiles} files up · ${at}`,
        1,
      );
    }
  } finally {
    for (const proxy of proxies) await proxy.close();
    await server?.stop();
    await sshd.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

export const transferCase: BenchCase = {
  id: 'transfer',
  title: 'File transfers: tether cp against scp through a delaying proxy',
  run,
};
