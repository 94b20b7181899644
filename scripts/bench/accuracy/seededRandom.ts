/**
 * A small seeded pseudo-random generator (mulberry32) and the draws the trace needs. The same seed
 * gives the same sequence on every machine and Node version (32-bit integer arithmetic only), which
 * is what makes the accuracy trace reproducible; Math.random cannot be seeded.
 */

export interface SeededRandom {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
  /** Uniform integer in [min, max]. */
  integer(min: number, max: number): number;
  /** Exponential gap with the given rate (events per unit); the gaps of a Poisson process. */
  exponential(rate: number): number;
}

export function seededRandom(seed: number): SeededRandom {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (min, max) => min + (max - min) * next(),
    integer: (min, max) => min + Math.floor((max - min + 1) * next()),
    exponential: (rate) => -Math.log(1 - next()) / rate,
  };
}
