// Runs the built Electron main bundle (dist/electron/main.js, the very file Electron would load) in
// a child Node process with `electron` mapped to a recording stand-in, and lets a test ask what the
// app requested from Electron and call the handlers it registered. Build first.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './exec-servers';
import type { DriverReply, DriverRequest } from './electron-stand-in/driver-protocol';
import { pidAlive } from './pids';

export const MAIN_BUNDLE = path.join(REPO_ROOT, 'dist', 'electron', 'main.js');
export const RENDERER_DIR = path.join(REPO_ROOT, 'dist', 'renderer');
const STAND_IN_DIR = path.join(REPO_ROOT, 'test', 'support', 'electron-stand-in');
const CALL_TIMEOUT_MS = 30_000;
const START_TIMEOUT_MS = 60_000;

export interface ElectronHost {
  call<T>(request: DriverRequest): Promise<T>;
  /** Quits the app the way Electron does (before-quit first) and waits for the child to exit. */
  close(): Promise<{ quitted: boolean; exitCode: number | null }>;
  stderr(): string;
}

export interface LaunchOptions {
  /** The safeStorage backend the stand-in reports (default: a real keyring, gnome_libsecret). */
  keyring?: 'gnome_libsecret' | 'kwallet6' | 'basic_text' | 'unavailable';
}

export async function launchElectronHost(options: LaunchOptions = {}): Promise<ElectronHost> {
  const userData = mkdtempSync(path.join(os.tmpdir(), 'tether-electron-host-'));
  const child = fork(path.join(STAND_IN_DIR, 'host-driver.ts'), [MAIN_BUNDLE], {
    cwd: REPO_ROOT,
    execArgv: ['--import', 'tsx', '--import', path.join(STAND_IN_DIR, 'register.mjs')],
    env: {
      ...process.env,
      TETHER_USER_DATA: userData,
      TETHER_STAND_IN_KEYRING: options.keyring ?? 'gnome_libsecret',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const cleanup = async (): Promise<void> => {
    if (child.pid !== undefined && pidAlive(child.pid)) child.kill('SIGKILL');
    await exited;
    rmSync(userData, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };

  try {
    await started(child, exited, () => stderr);
  } catch (error) {
    await cleanup();
    throw error;
  }

  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  child.on('message', (message: DriverReply) => {
    const call = pending.get(message.id);
    if (!call) return;
    pending.delete(message.id);
    if (message.error !== undefined) call.reject(new Error(`host driver: ${message.error}`));
    else call.resolve(message.result);
  });
  void exited.then(() => {
    for (const call of pending.values()) call.reject(new Error(`the app exited; stderr:\n${stderr}`));
    pending.clear();
  });

  const call = <T>(request: DriverRequest): Promise<T> => {
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`host driver did not answer ${request.op} within ${CALL_TIMEOUT_MS} ms`));
      }, CALL_TIMEOUT_MS);
      pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as T);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      child.send({ id, ...request });
    });
  };

  return {
    call,
    stderr: () => stderr,
    async close() {
      const quitted = await call<{ quitted: boolean }>({ op: 'quit' }).then(
        (reply) => reply.quitted,
        () => false,
      );
      if (child.connected) child.disconnect();
      const exitCode = await Promise.race([
        exited,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), CALL_TIMEOUT_MS)),
      ]);
      await cleanup();
      return { quitted, exitCode };
    },
  };
}

/** Resolves once the app has loaded its window; rejects with its stderr if it exits first. */
function started(child: ChildProcess, exited: Promise<number | null>, stderr: () => string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the app did not open its window within ${START_TIMEOUT_MS} ms:\n${stderr()}`)),
      START_TIMEOUT_MS,
    );
    child.once('message', (message: { started?: boolean; errorBoxes?: string[] }) => {
      clearTimeout(timer);
      if (message.started && message.errorBoxes?.length === 0) resolve();
      else reject(new Error(`the app failed to start: ${JSON.stringify(message)}\n${stderr()}`));
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited (code ${code}) before opening its window:\n${stderr()}`));
    });
  });
}
