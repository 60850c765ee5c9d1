// Keeps a long-running daemon's socket, pidfile and their directory looking fresh: on many hosts
// systemd-tmpfiles deletes what in /tmp has not changed for 10 days, and a daemon serving a
// session for longer would lose its socket while still running.
import { utimesSync } from 'node:fs';
import { RUN_FILES_TOUCH_INTERVAL_MS } from '../limits';

/** Sets the access and modification times of `files` to now; a missing one is skipped. */
export function touchRunFiles(files: readonly string[]): void {
  const now = new Date();
  for (const file of files) {
    try {
      utimesSync(file, now, now);
    } catch {
      // Not there (yet, or any more): nothing to keep.
    }
  }
}

/** Touches `files` every RUN_FILES_TOUCH_INTERVAL_MS for as long as the process runs. */
export function keepRunFilesFresh(files: readonly string[]): void {
  setInterval(() => touchRunFiles(files), RUN_FILES_TOUCH_INTERVAL_MS).unref();
}
