// `tether run --server URL -- ARGV` as a user runs it: the CLI as its own process, its stdout read
// and counted here, timed from spawn to exit (Node start-up included, the same for every server).
// Any other `tether` command line (runTetherCommand) and the raw binary ws ceiling's client
// (raw-relay-client.mjs) are timed the same way.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TETHER_BIN } from '../../support/exec-servers';
import { elapsedMs } from './stats';

const RAW_RELAY_CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'raw-relay-client.mjs');

export function runTetherCli(
  url: string,
  tokenFile: string | undefined,
  argv: string[],
  timeoutMs: number,
): Promise<{ bytes: number; ms: number }> {
  const args = [
    TETHER_BIN,
    'run',
    '--server',
    url,
    ...(tokenFile ? ['--token-file', tokenFile] : []),
    '--',
    ...argv,
  ];
  return runNodeCountingStdout(args, timeoutMs);
}

/** `tether ARGS…` (e.g. `run --container podman:C -- head …`) to its exit, its stdout counted. */
export function runTetherCommand(args: string[], timeoutMs: number): Promise<{ bytes: number; ms: number }> {
  return runNodeCountingStdout([TETHER_BIN, ...args], timeoutMs);
}

/** The ceiling's client against raw-relay-server.ts at `url`, running `argv` there. */
export function runRawRelayClient(
  url: string,
  argv: string[],
  timeoutMs: number,
): Promise<{ bytes: number; ms: number }> {
  return runNodeCountingStdout([RAW_RELAY_CLIENT, url, '--', ...argv], timeoutMs);
}

function runNodeCountingStdout(args: string[], timeoutMs: number): Promise<{ bytes: number; ms: number }> {
  const start = process.hrtime.bigint();
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
      else reject(new Error(`${path.basename(args[0]!)} exited with ${code ?? signal}: ${stderr.trim()}`));
    });
  });
}
