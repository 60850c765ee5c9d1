// A clock that re-renders its component every second, for countdowns and ticking durations.
import { useEffect, useState } from 'react';

const TICK_MS = 1000;

export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}
