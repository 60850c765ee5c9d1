// Cheap readings of another process from /proc: CPU time consumed (utime+stime) and resident memory
// (current and peak). Used to compare what each server costs, not only how fast it is.
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/PID/stat times; 100 on every Linux configuration we run on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime of `pid` in ms, or null if the process is gone. */
export function cpuTimeMs(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Field 2 (comm) may hold spaces; everything after its closing paren is space separated.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / CLOCK_TICKS_PER_SECOND;
}

function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) : null;
}

/** Peak resident set size of `pid` in MiB (VmHWM), or null if the process is gone. */
export function peakRssMiB(pid: number): number | null {
  const kb = statusKb(pid, 'VmHWM');
  return kb === null ? null : kb / 1024;
}

/** Current resident set size of `pid` in MiB (VmRSS), or null if the process is gone. */
export function rssMiB(pid: number): number | null {
  const kb = statusKb(pid, 'VmRSS');
  return kb === null ? null : kb / 1024;
}
