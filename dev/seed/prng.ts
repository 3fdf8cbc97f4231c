// Seeded randomness for the synthetic dataset: the same seed and label always give the same stream.
// sfc32 (128-bit state) rather than a 32-bit generator: a million 160-bit addresses must not repeat.

/** 128 bits of seed material from a string (cyrb128). */
function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

/** A bijection on uint32 (murmur3's finaliser): distinct inputs give distinct, random-looking outputs. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(readonly label: string) {
    [this.a, this.b, this.c, this.d] = hash128(label);
    for (let i = 0; i < 15; i++) this.next(); // let the seed bits diffuse
  }

  /** An independent stream for a part of the dataset; adding a new part never shifts the others. */
  fork(label: string): Prng {
    return new Prng(`${this.label}/${label}`);
  }

  /** uint32 */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** [0, 1) */
  float(): number {
    return this.next() / 4294967296;
  }

  /** integer in [0, n) */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** integer in [min, max] */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.float());
  }

  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** `bytes` random bytes as 0x-prefixed lowercase hex. */
  hex(bytes: number): string {
    for (let i = 0; i < bytes; i += 4) scratch.writeUInt32LE(this.next(), i);
    return `0x${scratch.toString("hex", 0, bytes)}`;
  }

  /**
   * A random-looking 0x hex value of `bytes` bytes that is distinct for every `index` of the same `salt`:
   * the last four bytes are a bijection of the index, so unique columns never collide.
   */
  uniqueHex(bytes: number, index: number, salt: number): string {
    for (let i = 0; i < bytes - 4; i += 4) scratch.writeUInt32LE(this.next(), i);
    scratch.writeUInt32BE(mix32((index ^ salt) >>> 0), bytes - 4);
    return `0x${scratch.toString("hex", 0, bytes)}`;
  }
}

/** Hex is built in one buffer and decoded once: string concatenation made the seed garbage-collect most of its time. */
const scratch = Buffer.alloc(64);

/**
 * Zipf-like ranks in [0, n): rank 0 is the most frequent, rank k has weight 1/(k+1)^s.
 * A precomputed CDF with binary search: exact, and fast enough for the few hundred thousand ranks we use.
 */
export class Zipf {
  private readonly cdf: Float64Array;

  constructor(
    readonly n: number,
    s: number,
  ) {
    this.cdf = new Float64Array(n);
    let total = 0;
    for (let k = 0; k < n; k++) this.cdf[k] = total += 1 / (k + 1) ** s;
    for (let k = 0; k < n; k++) this.cdf[k] /= total;
  }

  sample(rng: Prng): number {
    const u = rng.float();
    let lo = 0,
      hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Weighted choice among a few values: `[[value, weight], ...]`. */
export class Weighted<T> {
  private readonly values: T[];
  private readonly cdf: number[];

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let acc = 0;
    this.values = entries.map(([v]) => v);
    this.cdf = entries.map(([, w]) => (acc += w / total));
  }

  sample(rng: Prng): T {
    const u = rng.float();
    for (let i = 0; i < this.cdf.length; i++) if (u < this.cdf[i]) return this.values[i];
    return this.values[this.values.length - 1];
  }
}
