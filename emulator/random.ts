/**
 * Seeded randomness (mulberry32), so ids, passwords and IPs are reproducible with the `seed` option.
 * The generator's state is a single 32-bit number kept in the persisted state.
 */

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** A string of `length` characters from `alphabet`. */
  string(length: number, alphabet: string): string;
  /** The current generator state (persist it to continue the sequence after a restart). */
  state(): number;
}

export function createRandom(initialState: number): Random {
  let state = initialState >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    string(length, alphabet) {
      let out = "";
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
      return out;
    },
    state: () => state,
  };
}
