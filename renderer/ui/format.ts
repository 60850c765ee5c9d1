// Small display formatters shared by the components: byte sizes, durations, clock times, rates,
// how a process ended.
import type { ProcessView } from '../../shared/ipc';
import { exitSignal } from '../processes/process-badge';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(bytes: number | null): string {
  if (bytes === null) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}

export function formatRate(bytesPerSecond: number): string {
  return `${formatBytes(Math.round(bytesPerSecond))}/s`;
}

export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(s).padStart(2, '0')}s`;
  return `${s}s`;
}

export function formatClock(at: number): string {
  const d = new Date(at);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** `14:05`: when the day is clear from context (a session held until, expired at). */
export function formatTimeOfDay(at: number): string {
  const d = new Date(at);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

export function formatDateTime(at: number | null): string {
  if (at === null) return '—';
  const d = new Date(at);
  const date = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  return `${date} ${formatClock(at)}`;
}

export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  if (Number.isInteger(ms) || ms >= 10) return `${Math.round(ms)} ms`;
  return `${ms.toFixed(1)} ms`;
}

/**
 * How an ended process ended, for the line under its pane: the exit code, the signal that killed
 * it, or why it was lost or failed.
 */
export function formatEnding(process: Pick<ProcessView, 'state' | 'exitCode' | 'failure'>): string {
  if (process.state === 'exited') {
    const signal = exitSignal(process.exitCode);
    if (signal) return `killed by signal ${signal} (exit code ${process.exitCode})`;
    return `exited with code ${process.exitCode ?? '?'}`;
  }
  return `${process.state}${process.failure ? `: ${process.failure}` : ''}`;
}
