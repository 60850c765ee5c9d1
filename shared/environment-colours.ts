// The colours environments are told apart by: Local's default and the palette a new environment
// takes its colour from. Shared, so the app's first config and the add dialog cannot drift apart.

/** Local comes first; a new environment gets the first colour no environment looks like yet. */
export const ENVIRONMENT_PALETTE = [
  '#2f81f7',
  '#10b981',
  '#f59e0b',
  '#ef4444',
  '#8b5cf6',
  '#ec4899',
  '#14b8a6',
] as const;

export const LOCAL_ENVIRONMENT_COLOUR = ENVIRONMENT_PALETTE[0];

/** Largest per-channel difference at which two colours read as the same at a sidebar swatch's size. */
const SAME_LOOK_CHANNEL_DELTA = 24;

function channels(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

function looksAlike(a: string, b: string): boolean {
  const [x, y] = [channels(a), channels(b)];
  return x.every((c, i) => Math.abs(c - y[i]!) <= SAME_LOOK_CHANNEL_DELTA);
}

/**
 * A new environment's colour: the first of the palette that looks like none of `taken` (a user's
 * own pick or an older default close to a palette colour counts too); when all are taken, cycling.
 */
export function freeEnvironmentColour(taken: readonly string[]): string {
  const free = ENVIRONMENT_PALETTE.find((colour) => !taken.some((t) => looksAlike(colour, t)));
  return free ?? ENVIRONMENT_PALETTE[taken.length % ENVIRONMENT_PALETTE.length]!;
}
