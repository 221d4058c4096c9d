/**
 * A small seeded generator (mulberry32) so that the same seed writes the same model byte for byte:
 * tests compare vectors across runs, and Math.random cannot be seeded.
 */
export function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** Normal values (Box–Muller) with the given standard deviation, from a seeded uniform source. */
export function seededNormal(seed: number, standardDeviation: number): () => number {
  const uniform = seededUniform(seed);
  return () => {
    const u = 1 - uniform(); // in (0, 1], so the logarithm is finite
    const v = uniform();
    return standardDeviation * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}
