// `tether run --server URL -- ARGV` as a user runs it: the CLI as its own process, its stdout read
// and counted here, timed from spawn to exit (Node start-up included, the same for every server).
import { spawn } from 'node:child_process';
import { TETHER_BIN } from '../../support/exec-servers';
import { elapsedMs } from './stats';

export function runTetherCli(
  url: string,
  tokenFile: string | undefined,
  argv: string[],
  timeoutMs: number,
): Promise<{ bytes: number; ms: number }> {
  const start = process.hrtime.bigint();
  const args = [
    TETHER_BIN,
    'run',
    '--server',
    url,
    ...(tokenFile ? ['--token-file', tokenFile] : []),
    '--',
    ...argv,
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let bytes = 0;
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => (bytes += data.length));
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (data: string) => (stderr = (stderr + data).slice(-2_000)));
  return new Promise((resolve, reject) => {
    // Ours to stop: a run that hangs must not outlive its measurement.
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ bytes, ms: elapsedMs(start) });
      else reject(new Error(`tether run exited with ${code ?? signal}: ${stderr.trim()}`));
    });
  });
}
