// A small seeded PRNG (mulberry32) for chaos runs and fuzzing: the seed is printed with every run,
// and setting CHAOS_SEED (or the fuzz seed) replays the same schedule.

export type Random = () => number;

/** Returns a generator of floats in [0, 1) fully determined by `seed`. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** CHAOS_SEED if set (a decimal integer), otherwise a fresh seed. */
export function chaosSeed(): number {
  const fromEnv = process.env.CHAOS_SEED;
  if (fromEnv !== undefined && fromEnv !== '') {
    const seed = Number(fromEnv);
    if (!Number.isInteger(seed)) throw new Error(`CHAOS_SEED must be an integer, got ${fromEnv}`);
    return seed >>> 0;
  }
  return Math.floor(Math.random() * 2 ** 32);
}

/** An integer in [min, max]. */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
