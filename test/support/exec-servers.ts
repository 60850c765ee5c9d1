// Starts real exec-servers for tests and benchmarks: Tether's (`bin/tether.js exec-server`) or
// OpenAI's `codex exec-server`, over WebSocket or stdio, on 127.0.0.1 only, stopped by pid.
// Tether's WebSocket server requires a token, so it gets a real one in a 0600 file in its home.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  /**
   * The capability token a Tether ws server was started with (unless the caller passed its own
   * `--ws-auth`); undefined for codex, which has no auth, and for stdio.
   */
  token?: string;
  /** The 0600 file holding `token` (for `tether run --token-file`), inside `home`. */
  tokenFile?: string;
  /** `Authorization: Bearer <token>` when the server has a token, otherwise no header. */
  authHeaders: () => Record<string, string>;
  /** How a client reaches this ws server, at `url` (a proxy in front of it) or its own URL. */
  transportSpec: (url?: string) => { kind: 'ws'; url: string; token?: string };
  stderr: () => string;
  /** Sends SIGTERM (then SIGKILL after a grace period) to the pid we started; resolves on exit. */
  stop: () => Promise<void>;
}

export interface StartServerOptions {
  /** With its own `--ws-auth`, the caller decides auth and `token` stays undefined. */
  extraArgs?: string[];
  /** The capability token for a Tether ws server (default: a fresh random one). */
  token?: string;
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
  const extraArgs = options.extraArgs ?? [];
  const token =
    impl === 'tether' && transport === 'ws' && !extraArgs.includes('--ws-auth')
      ? (options.token ?? randomBytes(32).toString('base64url'))
      : undefined;
  const tokenPath = token === undefined ? undefined : writeTokenFile(home, token);
  const authArgs =
    tokenPath === undefined ? [] : ['--ws-auth', 'capability-token', '--ws-token-file', tokenPath];
  const child = spawn(command, [...args, '--listen', listen, ...authArgs, ...extraArgs], {
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
  const authHeaders = (): Record<string, string> =>
    token === undefined ? {} : { Authorization: `Bearer ${token}` };
  const server: StartedServer = {
    impl,
    transport,
    child,
    home,
    token,
    tokenFile: tokenPath,
    authHeaders,
    transportSpec: (url) => {
      const target = url ?? server.url;
      if (target === undefined) throw new Error(`the ${impl} ${transport} server has no URL`);
      return { kind: 'ws', url: target, ...(token === undefined ? {} : { token }) };
    },
    stderr: () => stderr,
    stop,
  };
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

/** Writes `token` to a file only its owner can read, in the server's temp home. */
function writeTokenFile(home: string, token: string): string {
  const file = path.join(home, 'ws-token');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return file;
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
