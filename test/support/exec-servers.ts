// Starts real exec-servers for tests and benchmarks: Tether's (`bin/tether.js exec-server`) or
// OpenAI's `codex exec-server`, over WebSocket or stdio, on 127.0.0.1 only, stopped by pid.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

export type ServerImpl = 'tether' | 'codex';
export type ServerTransport = 'ws' | 'stdio';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TETHER_BIN = path.join(REPO_ROOT, 'bin', 'tether.js');

let codexPath: string | undefined;
/** Path of the pinned codex binary, installing it into .cache/codex on first use. */
function codexBinary(): string {
  codexPath ??= execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'install-codex.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  return codexPath;
}

/** argv (without the listen flag) that starts the given exec-server implementation. */
export function serverCommand(impl: ServerImpl): { command: string; args: string[] } {
  return impl === 'tether'
    ? { command: process.execPath, args: [TETHER_BIN, 'exec-server'] }
    : { command: codexBinary(), args: ['exec-server'] };
}

export interface StartedServer {
  impl: ServerImpl;
  transport: ServerTransport;
  child: ChildProcess;
  /** ws://127.0.0.1:PORT for ws servers. */
  url?: string;
  /** Temp dir used as CODEX_HOME and a scratch cwd; removed by stop(). */
  home: string;
  stderr: () => string;
  /** Sends SIGTERM (then SIGKILL after a grace period) to the pid we started; resolves on exit. */
  stop: () => Promise<void>;
}

export interface StartServerOptions {
  extraArgs?: string[];
  env?: NodeJS.ProcessEnv;
  listen?: string;
  cwd?: string;
}

export async function startServer(
  impl: ServerImpl,
  transport: ServerTransport,
  options: StartServerOptions = {},
): Promise<StartedServer> {
  const home = mkdtempSync(path.join(os.tmpdir(), `tether-${impl}-`));
  const { command, args } = serverCommand(impl);
  const listen = options.listen ?? (transport === 'ws' ? 'ws://127.0.0.1:0' : 'stdio');
  const child = spawn(command, [...args, '--listen', listen, ...(options.extraArgs ?? [])], {
    cwd: options.cwd ?? home,
    env: { ...process.env, CODEX_HOME: home, RUST_LOG: 'warn', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    stderr = (stderr + d).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  const server: StartedServer = { impl, transport, child, home, stderr: () => stderr, stop };
  if (transport === 'ws') {
    try {
      server.url = await firstLine(child, 15_000);
    } catch (error) {
      await stop();
      throw new Error(`${impl} exec-server did not print its URL: ${(error as Error).message}\n${stderr}`);
    }
  }
  return server;
}

function firstLine(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout! });
    const timer = setTimeout(() => {
      rl.close();
      reject(new Error('timed out'));
    }, timeoutMs);
    rl.once('line', (line) => {
      clearTimeout(timer);
      rl.close();
      resolve(line.trim());
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}`));
    });
  });
}
