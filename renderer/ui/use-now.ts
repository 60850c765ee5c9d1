// One clock for the whole window, ticking every second, for countdowns and ticking durations. It is
// shared so that every place showing the same link (header, banner, sidebar) reads the same instant.
// A caller whose text does not depend on the time right now passes `ticking = false`: it reads the
// clock (kept running and fresh while it is shown) without being re-rendered every second, so that a
// fleet of healthy links in the sidebar is not redrawn row by row each second for nothing.
import { useSyncExternalStore } from 'react';

const TICK_MS = 1000;

let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();
/** Callers reading the clock without being told of its ticks. */
let quietReaders = 0;

function start(): void {
  if (timer !== null) return;
  now = Date.now();
  timer = setInterval(() => {
    now = Date.now();
    for (const l of listeners) l();
  }, TICK_MS);
}

function stopIfUnused(): void {
  if (listeners.size === 0 && quietReaders === 0 && timer !== null) {
    clearInterval(timer);
    timer = null;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  start();
  return () => {
    listeners.delete(listener);
    stopIfUnused();
  };
}

function subscribeQuietly(): () => void {
  quietReaders += 1;
  start();
  return () => {
    quietReaders -= 1;
    stopIfUnused();
  };
}

const readNow = (): number => now;

export function useNow(ticking = true): number {
  return useSyncExternalStore(ticking ? subscribe : subscribeQuietly, readNow);
}
