#!/usr/bin/env node
// `npm start`: builds Tether, then runs the desktop app in Electron. When Electron cannot start on
// this machine (binary never downloaded, no display, missing system libraries), it says so and why,
// and runs the same app in the browser instead (`tether web`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

const reason = electronUnavailableReason();
if (reason) {
  fallBackToWeb(reason);
} else {
  runElectron(electronBinary());
}

/** Every reason Electron cannot start here, joined; null when it can. */
function electronUnavailableReason() {
  const reasons = [];
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    reasons.push('there is no graphical display (neither DISPLAY nor WAYLAND_DISPLAY is set)');
  }
  let binary;
  try {
    binary = electronBinary();
  } catch (error) {
    reasons.push(`its binary is not installed and could not be downloaded (${firstLine(error)})`);
  }
  if (binary !== undefined && (!binary || !existsSync(binary))) {
    reasons.push(`its binary is missing (${binary || 'no path'})`);
  }
  return reasons.length > 0 ? reasons.join('; and ') : null;
}

function electronBinary() {
  // The electron package resolves (and on first use downloads) the binary when required.
  return createRequire(import.meta.url)('electron');
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
  console.error(`tether: Electron cannot start here: ${why}.`);
  console.error('tether: running the same app in your browser instead (tether web).');
  const child = spawn(process.execPath, [path.join(root, 'bin', 'tether.js'), 'web'], {
    cwd: root,
    stdio: 'inherit',
  });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.once('exit', (code) => process.exit(code ?? 0));
}

function firstLine(error) {
  return String(error instanceof Error ? error.message : error).split('\n')[0];
}
