// What a process's state badge says. An exit is not one thing: a clean exit, a non-zero exit and an
// end by a signal (exit code 128 + signal, as the exec-server reports it) each get their own badge.

import type { ProcessView } from '../../shared/ipc';

const SIGNAL_NAMES: Record<number, string> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  3: 'SIGQUIT',
  6: 'SIGABRT',
  9: 'SIGKILL',
  13: 'SIGPIPE',
  15: 'SIGTERM',
};

/** The signal an exit code stands for (128 + n), or null for an ordinary exit. */
export function exitSignal(exitCode: number | null): string | null {
  if (exitCode === null || exitCode <= 128 || exitCode > 128 + 64) return null;
  const n = exitCode - 128;
  return SIGNAL_NAMES[n] ?? `signal ${n}`;
}

export interface ProcessBadge {
  label: string;
  /** A CSS class: state-<state>, or state-exit-error / state-killed for the exits that went wrong. */
  className: string;
}

export function processBadge(p: Pick<ProcessView, 'state' | 'exitCode'>): ProcessBadge {
  if (p.state === 'exited' && p.exitCode !== null && p.exitCode !== 0) {
    return exitSignal(p.exitCode) !== null
      ? { label: 'killed', className: 'state-killed' }
      : { label: 'exit error', className: 'state-exit-error' };
  }
  return { label: p.state, className: `state-${p.state}` };
}

/** The Exit column: the code, with the signal's name when it stands for one. */
export function exitText(p: Pick<ProcessView, 'exitCode' | 'failure'>): string {
  if (p.exitCode === null) return p.failure ? 'failed' : '—';
  const signal = exitSignal(p.exitCode);
  return signal ? `${p.exitCode} (${signal})` : String(p.exitCode);
}

export function ProcessStateBadge({ process }: { process: Pick<ProcessView, 'state' | 'exitCode'> }) {
  const badge = processBadge(process);
  return <span className={`badge ${badge.className}`}>{badge.label}</span>;
}
