// Starts `tether web --no-open --port 0` with a throwaway data dir for one e2e test, reads the URL
// from its first stdout line, and stops it by pid. With `rememberedPort`, it omits `--port`, so the
// host listens where it listened last time on that data dir (as a user's `tether web` does). With `opener`, it opens the browser instead,
// through whatever `xdg-open` that folder holds.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { TETHER_BIN } from '../support/exec-servers';

/** How long the web host may take to print its URL on a loaded machine. */
const START_TIMEOUT_MS = 30_000;
/** Grace period between SIGTERM and SIGKILL when stopping. */
const STOP_GRACE_MS = 5_000;

export interface WebApp {
  url: string;
  dataDir: string;
  child: ChildProcess;
  stderr: () => string;
  /** Stops the host; its data dir is removed unless `keepDataDir` (a restart on the same one). */
  stop: (options?: { keepDataDir?: boolean }) => Promise<void>;
}

export interface WebAppOptions {
  /** A folder put first on PATH whose `xdg-open` stands in for the system's; omits --no-open. */
  opener?: string;
  /** Files to put in the app's (temp) HOME first, by path under it, e.g. `.ssh/config`. */
  homeFiles?: Record<string, string>;
  /** The data dir of an earlier run (an app restart); by default a fresh one. */
  dataDir?: string;
  /** No `--port`: the port remembered in the data dir (a free one on the first run). */
  rememberedPort?: boolean;
}

export async function startWebApp(options: WebAppOptions = {}): Promise<WebApp> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'tether-web-e2e-'));
  const home = path.join(dataDir, 'home');
  // A restart reuses the data dir, and its home with it.
  mkdirSync(home, { recursive: true });
  for (const [relative, text] of Object.entries(options.homeFiles ?? {})) {
    mkdirSync(path.dirname(path.join(home, relative)), { recursive: true, mode: 0o700 });
    writeFileSync(path.join(home, relative), text, { mode: 0o600 });
  }
  const child = spawn(
    process.execPath,
    [
      TETHER_BIN,
      'web',
      ...(options.opener ? [] : ['--no-open']),
      ...(options.rememberedPort ? [] : ['--port', '0']),
      '--data-dir',
      dataDir,
    ],
    {
      cwd: dataDir,
      env: {
        ...process.env,
        ...(options.opener ? { PATH: `${options.opener}${path.delimiter}${process.env.PATH ?? ''}` } : {}),
        TETHER_WEB_USER_DATA: dataDir,
        HOME: home,
        SHELL: '/bin/bash',
        PS1: '$ ',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => (stderr = (stderr + d).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (stopOptions: { keepDataDir?: boolean } = {}): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
    if (stopOptions.keepDataDir) return;
    // Retried: a child of the app (its Local server, a shell) may still write a last file here.
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`tether web printed no URL in time; stderr: ${stderr}`)),
        START_TIMEOUT_MS,
      );
      const lines = readline.createInterface({ input: child.stdout! });
      lines.once('line', (line) => {
        clearTimeout(timer);
        resolve(line.trim());
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`tether web exited with ${code}; stderr: ${stderr}`));
      });
    });
    return { url, dataDir, child, stderr: () => stderr, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
