// The Health timeline's rows: consecutive changes into the same state (every attempt of one outage
// reports "reconnecting" again) fold into one row that counts them and keeps the latest reason.
import type { HealthView } from '../../shared/ipc';

export interface TimelineRow {
  /** When the run of this state began. */
  at: number;
  /** When it was last entered again (equals `at` for a single change). */
  lastAt: number;
  state: string;
  /** How many changes the row stands for. */
  count: number;
  reason?: string;
}

export function timelineRows(history: HealthView['history']): TimelineRow[] {
  const rows: TimelineRow[] = [];
  for (const entry of history) {
    const last = rows[rows.length - 1];
    if (last && last.state === entry.state) {
      last.count += 1;
      last.lastAt = entry.at;
      if (entry.reason) last.reason = entry.reason;
      continue;
    }
    rows.push({
      at: entry.at,
      lastAt: entry.at,
      state: entry.state,
      count: 1,
      ...(entry.reason ? { reason: entry.reason } : {}),
    });
  }
  return rows;
}
