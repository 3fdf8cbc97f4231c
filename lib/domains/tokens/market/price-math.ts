// Exact pool price math: a V3-style pool's sqrtPriceX96 to a token's price and market cap, as ratios of
// bigints. Nothing is rounded until the one conversion to a JS number at the very end.

/** A non-negative rational number num/den (den > 0). */
export type Ratio = { num: bigint; den: bigint };

const Q192 = 1n << 192n;
const pow10 = (n: number) => 10n ** BigInt(n);

export type PoolPriceInput = {
  sqrtPriceX96: bigint;
  /** True when the token whose price is asked is the pool's token0. */
  tokenIsToken0: boolean;
  tokenDecimals: number;
  pairedDecimals: number;
};

/**
 * Price of one whole token in whole paired tokens. sqrtPriceX96² / 2¹⁹² is token1 base units per token0
 * base unit; the inverse gives token0 per token1; decimals move base units to whole tokens.
 */
export function tokenPriceInPaired(p: PoolPriceInput): Ratio {
  if (p.sqrtPriceX96 <= 0n) throw new RangeError("sqrtPriceX96 must be positive");
  const squared = p.sqrtPriceX96 * p.sqrtPriceX96;
  return p.tokenIsToken0
    ? { num: squared * pow10(p.tokenDecimals), den: Q192 * pow10(p.pairedDecimals) }
    : { num: Q192 * pow10(p.tokenDecimals), den: squared * pow10(p.pairedDecimals) };
}

export function multiply(...factors: Ratio[]): Ratio {
  return factors.reduce((acc, f) => ({ num: acc.num * f.num, den: acc.den * f.den }), { num: 1n, den: 1n });
}

/** A fixed-point integer (e.g. a feed answer with 8 decimals, or wei with 18) as a ratio. */
export function fromFixed(value: bigint, decimals: number): Ratio {
  return { num: value, den: pow10(decimals) };
}

export type MarketCapInput = {
  sqrtPriceX96: bigint;
  tokenIsToken0: boolean;
  /** Total supply in the token's base units. */
  supply: bigint;
  pairedDecimals: number;
  /** USD per whole paired token. */
  pairedUsd: Ratio;
};

/**
 * Market cap in USD: supply × price × USD per paired token. Supply stays in base units and the price
 * is per base unit, so the token's own decimals cancel out and need not be read.
 */
export function marketCapUsd(input: MarketCapInput): Ratio {
  const pricePerBaseUnit = tokenPriceInPaired({ ...input, tokenDecimals: 0 });
  return multiply({ num: input.supply, den: 1n }, pricePerBaseUnit, input.pairedUsd);
}

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/**
 * The nearest double to num/den (correctly rounded outside the subnormal range): the quotient is taken
 * with 64 significant bits plus a sticky bit, more than a double's 53, and scaled by a power of two.
 */
export function ratioToNumber(r: Ratio): number {
  if (r.den <= 0n) throw new RangeError("denominator must be positive");
  if (r.num === 0n) return 0;
  const negative = r.num < 0n;
  const num = negative ? -r.num : r.num;
  const shift = bitLength(num) - bitLength(r.den) - 64;
  const [n, d] = shift >= 0 ? [num, r.den << BigInt(shift)] : [num << BigInt(-shift), r.den];
  // A sticky low bit stands for a non-zero remainder, so the conversion rounds as the exact quotient would.
  const q = n / d;
  const sticky = q * d === n ? q : q | 1n;
  // Two steps so that 2^shift itself never overflows or underflows before the product does.
  const half = Math.trunc(shift / 2);
  const value = Number(sticky) * 2 ** half * 2 ** (shift - half);
  return negative ? -value : value;
}
