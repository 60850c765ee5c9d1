// What the report says about where it ran: date, CPU, cores, memory, load, and the versions of
// Node, Tether, codex, OpenSSH and Chromium that took part.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { TETHER_VERSION } from '../../../shared/version';

export interface MachineInfo {
  date: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  loadAverage: number[];
  kernel: string;
  versions: Record<string, string>;
}

function tryRun(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 10_000 });
  return `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n')[0] || 'unavailable';
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match) return match[1]!.trim();
  } catch {
    // /proc/cpuinfo is Linux-only; fall back to what Node reports.
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

export function machineInfo(extraVersions: Record<string, string> = {}): MachineInfo {
  let codex = 'unavailable';
  try {
    codex = execFileSync(process.execPath, ['scripts/install-codex.mjs'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    codex = tryRun(codex, ['--version']);
  } catch {
    // Reported as unavailable; the codex columns then say why they are missing.
  }
  return {
    date: new Date().toISOString(),
    cpu: cpuModel(),
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
    loadAverage: os.loadavg().map((v) => Math.round(v * 100) / 100),
    kernel: `${os.type()} ${os.release()}`,
    versions: {
      node: process.version,
      tether: TETHER_VERSION,
      codex,
      openssh: tryRun('ssh', ['-V']),
      ...extraVersions,
    },
  };
}
