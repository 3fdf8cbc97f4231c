// Market cap <-> starting tick for a pool whose token0 is the new token (100 billion tokens, 18 decimals).
// Exact: the price becomes sqrtPriceX96 with integer arithmetic and the tick is the one Uniswap's TickMath
// assigns to it (the largest tick whose sqrt ratio does not exceed the price), then floored to the spacing.
// For a WETH pair this is tick = floor(log_1.0001(marketCap * 1e-11) / 200) * 200 without float error.
import { decimalOf, type Decimal } from "./units";

export const MIN_TICK = -887_272;
export const MAX_TICK = 887_272;
export const TICK_SPACING = 200;
/** The platform's default starting tick: about 10 WETH of market cap. */
export const DEFAULT_TICK = -230_400;
/** Upper tick of the default position (about 1.5 billion USD at 18 decimals): the ceiling of standard pools. */
export const DEFAULT_UPPER_TICK = -120_000;

const MIN_SQRT_RATIO = 4295128739n;
const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;
const TOKEN_UNITS_EXPONENT = 29n; // 1e11 tokens x 1e18 wei per token
const MAX_UINT256 = (1n << 256n) - 1n;

// floor(2^128 / sqrt(1.0001)^(2^i)) for i = 1..19, as in Uniswap v3/v4 TickMath (and dev/chain/contracts/TickMath.sol).
const FACTORS = [
  0xfff97272373d413259a46990580e2139n,
  0xfff2e50f5f656932ef12357cf3c7fdcbn,
  0xffe5caca7e10e4e61c3624eaa0941ccfn,
  0xffcb9843d60f6159c9db58835c926643n,
  0xff973b41fa98c081472e6896dfb254bfn,
  0xff2ea16466c96a3843ec78b326b52860n,
  0xfe5dee046a99a2a811c461f1969c3052n,
  0xfcbe86c7900a88aedcffc83b479aa3a3n,
  0xf987a7253ac413176f2b074cf7815e53n,
  0xf3392b0822b70005940c7a398e4b70f2n,
  0xe7159475a2c29b7443b29c7fa6e889d8n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e4n,
  0x70d869a156d2a1b890bb3df62baf32f6n,
  0x31be135f97d08fd981231505542fcfa5n,
  0x9aa508b5b7a84e1c677de54f3e99bc8n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe97n,
  0x48a170391f7dc42444e8fa2n,
];

/** sqrt(1.0001^tick) in Q64.96, rounded up exactly as TickMath.getSqrtPriceAtTick. */
export function sqrtRatioAtTick(tick: number): bigint {
  if (!Number.isInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) throw new RangeError(`tick ${tick} out of range`);
  const abs = Math.abs(tick);
  let ratio = abs & 1 ? 0xfffcb933bd6fad37aa2d162d1a594001n : 1n << 128n;
  FACTORS.forEach((factor, i) => {
    if (abs & (2 << i)) ratio = (ratio * factor) >> 128n;
  });
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

/** The largest tick whose sqrt ratio is <= sqrtPriceX96 (TickMath.getTickAtSqrtPrice), by bisection. */
export function tickAtSqrtRatio(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) throw new RangeError("sqrt price out of range");
  let low = MIN_TICK;
  let high = MAX_TICK;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (sqrtRatioAtTick(mid) <= sqrtPriceX96) low = mid;
    else high = mid - 1;
  }
  return low;
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/**
 * The spaced starting tick for a market cap given in whole paired tokens (`pairedDecimals` decimals), or
 * null when the price is outside what a pool can hold. Floors: the pool never starts above the asked cap.
 */
export function marketCapToTick(
  marketCap: number | Decimal,
  pairedDecimals: number,
  spacing = TICK_SPACING,
): number | null {
  const { digits, scale } = typeof marketCap === "number" ? decimalOf(marketCap) : marketCap;
  if (digits === 0n) return null;
  // price (paired wei per token wei) = digits * 10^pairedDecimals / (10^scale * 10^29)
  const numerator = (digits * 10n ** BigInt(pairedDecimals)) << 192n;
  const denominator = 10n ** (BigInt(scale) + TOKEN_UNITS_EXPONENT);
  const sqrtPriceX96 = isqrt(numerator / denominator);
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) return null;
  const spaced = Math.floor(tickAtSqrtRatio(sqrtPriceX96) / spacing) * spacing;
  return spaced < MIN_TICK ? null : spaced;
}

/** Market cap in whole paired tokens at a tick (a float, 4 decimals, for display and the tokens row). */
export function tickToMarketCap(tick: number, pairedDecimals = 18): number {
  return Math.round(1.0001 ** tick * 1e11 * 10 ** (18 - pairedDecimals) * 1e4) / 1e4;
}

/**
 * Upper tick of a standard pool's single position: -120,000 (the platform's default) for an 18-decimal
 * paired token, moved by the decimal difference otherwise, so the ceiling is the same market cap in units.
 */
export function standardUpperTick(pairedDecimals: number): number {
  const shift = ((pairedDecimals - 18) * Math.log(10)) / Math.log(1.0001);
  return DEFAULT_UPPER_TICK + Math.round(shift / TICK_SPACING) * TICK_SPACING;
}
