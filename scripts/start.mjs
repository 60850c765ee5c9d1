#!/usr/bin/env node
// `npm start`: builds Tether, then runs the desktop app in Electron. When Electron cannot start on
// this machine (binary never downloaded, no display, missing system libraries), it says so and why
// in one line, and runs the same app in the browser instead (`tether web`). A missing binary is not
// downloaded here: offline that only adds a stack trace; the line names the command that gets it.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinaryStatus } from './electron-binary.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** An Electron that exits with an error this soon never showed a usable window. */
const EARLY_EXIT_MS = 15_000;
/** Stderr kept to explain an early exit. */
const STDERR_TAIL_CHARS = 2_000;

const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
if (built.status !== 0) {
  console.error('tether: the build failed (see above); fix it and run npm start again.');
  process.exit(built.status ?? 1);
}

const electron = electronBinaryStatus(path.join(root, 'node_modules', 'electron'));
const reason = electronUnavailableReason(electron);
if (reason) {
  fallBackToWeb(reason);
} else {
  runElectron(electron.binary);
}

/** Every reason Electron cannot start here, joined; null when it can. */
function electronUnavailableReason(status) {
  const reasons = [];
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    reasons.push('there is no graphical display (neither DISPLAY nor WAYLAND_DISPLAY is set)');
  }
  if (status.missing) reasons.push(status.missing);
  return reasons.length > 0 ? reasons.join('; and ') : null;
}

function runElectron(binary) {
  const startedAt = Date.now();
  const child = spawn(binary, [path.join(root, 'dist', 'electron', 'main.js')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    process.stderr.write(chunk);
    stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL_CHARS);
  });
  child.once('error', (error) => fallBackToWeb(`it could not be run (${error.message})`));
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal === null && Date.now() - startedAt < EARLY_EXIT_MS) {
      const tail = stderr.trim().split('\n').slice(-3).join(' / ');
      fallBackToWeb(`it exited right away with code ${code}${tail ? `: ${tail}` : ''}`);
      return;
    }
    process.exit(code ?? 0);
  });
}

function fallBackToWeb(why) {
  // One line: why, and that the same app opens in the browser (what `npx tether web` does).
  console.error(
    `tether: Electron cannot start here: ${why}. Opening the app in your browser instead (npx tether web).`,
  );
  const child = spawn(process.execPath, [path.join(root, 'bin', 'tether.js'), 'web'], {
    cwd: root,
    stdio: 'inherit',
  });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.once('exit', (code) => process.exit(code ?? 0));
}
