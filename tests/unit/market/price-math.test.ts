// Pool price math against an independent fixed-point decimal computation, over many random pools.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { marketCapUsd, ratioToNumber, tokenPriceInPaired, fromFixed } from "@/lib/domains/tokens/market/price-math";

const MIN_SQRT_RATIO = 4295128739n;
const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;
const DIGITS = 120n; // fractional decimal digits kept by the reference computation

/**
 * The reference: sqrtPriceX96 / 2^96 as a decimal with 120 fractional digits, squared (or inverted by
 * long division), then shifted by the decimals, written as a decimal string and parsed by JS.
 * No ratios and no bit shifts: a different route to the same number.
 */
function referencePrice(
  sqrtPriceX96: bigint,
  tokenIsToken0: boolean,
  tokenDecimals: number,
  pairedDecimals: number,
): number {
  const scale = 10n ** DIGITS;
  const s = (sqrtPriceX96 * scale) / 2n ** 96n; // sqrt(price) with DIGITS fractional digits
  const squared = s * s; // price of token0 in token1 base units, 2*DIGITS fractional digits
  const mantissa = tokenIsToken0 ? squared : (scale * scale * scale * scale) / squared;
  const exponent = -(2n * DIGITS) - BigInt(pairedDecimals) + BigInt(tokenDecimals);
  return Number.parseFloat(`${mantissa}e${exponent}`);
}

function relativeError(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
}

const sqrtPrice = fc.oneof(
  fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO }),
  fc.constantFrom(MIN_SQRT_RATIO, MAX_SQRT_RATIO, 2n ** 96n, MIN_SQRT_RATIO + 1n, MAX_SQRT_RATIO - 1n),
);
const decimals = fc.constantFrom(0, 6, 8, 9, 18, 24);

describe("tokenPriceInPaired", () => {
  it("matches the decimal reference for random pools in both token orders", () => {
    fc.assert(
      fc.property(
        sqrtPrice,
        fc.boolean(),
        decimals,
        decimals,
        (sqrtPriceX96, tokenIsToken0, tokenDecimals, pairedDecimals) => {
          const exact = ratioToNumber(
            tokenPriceInPaired({ sqrtPriceX96, tokenIsToken0, tokenDecimals, pairedDecimals }),
          );
          const reference = referencePrice(sqrtPriceX96, tokenIsToken0, tokenDecimals, pairedDecimals);
          expect(relativeError(exact, reference)).toBeLessThan(1e-15);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("gives 1.0001^tick for pools created at a tick, up to the extreme ticks", () => {
    const ticks = [-887272, -887271, -500000, -230400, -1, 0, 1, 120000, 500000, 887271, 887272];
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -887272, max: 887272 }), fc.constantFrom(...ticks)), (tick) => {
        const sqrtPriceX96 = BigInt(Math.floor(Math.sqrt(1.0001 ** tick) * 2 ** 96));
        const asToken0 = ratioToNumber(
          tokenPriceInPaired({ sqrtPriceX96, tokenIsToken0: true, tokenDecimals: 18, pairedDecimals: 18 }),
        );
        const asToken1 = ratioToNumber(
          tokenPriceInPaired({ sqrtPriceX96, tokenIsToken0: false, tokenDecimals: 18, pairedDecimals: 18 }),
        );
        expect(relativeError(asToken0, 1.0001 ** tick)).toBeLessThan(1e-9);
        expect(relativeError(asToken1, 1.0001 ** -tick)).toBeLessThan(1e-9);
      }),
      { numRuns: 500 },
    );
  });

  it("is exact for a price of one in both orders and moves by the decimals difference", () => {
    const one = 2n ** 96n;
    expect(
      tokenPriceInPaired({ sqrtPriceX96: one, tokenIsToken0: true, tokenDecimals: 18, pairedDecimals: 18 }),
    ).toEqual({
      num: one * one * 10n ** 18n,
      den: 2n ** 192n * 10n ** 18n,
    });
    // 1 base unit of an 18-decimal token0 per base unit of a 6-decimal token1: 1e12 whole paired per token.
    expect(
      ratioToNumber(
        tokenPriceInPaired({ sqrtPriceX96: one, tokenIsToken0: true, tokenDecimals: 18, pairedDecimals: 6 }),
      ),
    ).toBe(1e12);
    expect(
      ratioToNumber(
        tokenPriceInPaired({ sqrtPriceX96: one, tokenIsToken0: false, tokenDecimals: 6, pairedDecimals: 18 }),
      ),
    ).toBe(1e-12);
  });

  it("refuses an uninitialised pool", () => {
    expect(() =>
      tokenPriceInPaired({ sqrtPriceX96: 0n, tokenIsToken0: true, tokenDecimals: 18, pairedDecimals: 18 }),
    ).toThrow(RangeError);
  });
});

describe("marketCapUsd", () => {
  it("multiplies whole supply, price and the USD price of the paired token", () => {
    fc.assert(
      fc.property(
        sqrtPrice,
        fc.boolean(),
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 14n }),
        (sqrtPriceX96, tokenIsToken0, supply, feedAnswer) => {
          const cap = ratioToNumber(
            marketCapUsd({
              sqrtPriceX96,
              tokenIsToken0,
              pairedDecimals: 18,
              supply,
              pairedUsd: fromFixed(feedAnswer, 8),
            }),
          );
          const reference =
            referencePrice(sqrtPriceX96, tokenIsToken0, 18, 18) * (Number(supply) / 1e18) * (Number(feedAnswer) / 1e8);
          if (reference === 0 || !Number.isFinite(reference)) return; // beyond double range: nothing to compare
          expect(relativeError(cap, reference)).toBeLessThan(1e-12);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("needs only the paired token's decimals: a 6-decimal paired token at 1 USD", () => {
    // token0 with 18 decimals; 1 whole token = 0.5 whole USDC = 500000 base units per 1e18 base units.
    const rawPrice = 500_000 / 1e18;
    const sqrtPriceX96 = BigInt(Math.floor(Math.sqrt(rawPrice) * 2 ** 96));
    const cap = marketCapUsd({
      sqrtPriceX96,
      tokenIsToken0: true,
      pairedDecimals: 6,
      supply: 1000n * 10n ** 18n,
      pairedUsd: { num: 1n, den: 1n },
    });
    expect(ratioToNumber(cap)).toBeCloseTo(500, 6);
  });

  it("prices the default pool (tick -230400, 100 billion supply, ETH at 3000 USD) at 1e11 × 1.0001^-230400 ≈ 9.87 ETH", () => {
    const sqrtPriceX96 = BigInt(Math.floor(Math.sqrt(1.0001 ** -230400) * 2 ** 96));
    const cap = marketCapUsd({
      sqrtPriceX96,
      tokenIsToken0: true,
      pairedDecimals: 18,
      supply: 100_000_000_000n * 10n ** 18n,
      pairedUsd: fromFixed(3000_00000000n, 8),
    });
    expect(ratioToNumber(cap) / 3000).toBeCloseTo(1e11 * 1.0001 ** -230400, 6);
  });
});

describe("ratioToNumber", () => {
  it("rounds like the division of two doubles where both are exact", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 53 - 1 }), fc.integer({ min: 1, max: 2 ** 53 - 1 }), (a, b) => {
        expect(ratioToNumber({ num: BigInt(a), den: BigInt(b) })).toBe(a / b);
      }),
      { numRuns: 2000 },
    );
  });

  it("handles zero, huge and tiny ratios without overflow in intermediate steps", () => {
    expect(ratioToNumber({ num: 0n, den: 7n })).toBe(0);
    expect(ratioToNumber({ num: 10n ** 300n, den: 1n })).toBe(1e300);
    expect(ratioToNumber({ num: 1n, den: 10n ** 300n })).toBe(1e-300);
    expect(ratioToNumber({ num: 10n ** 400n, den: 10n ** 100n })).toBe(1e300);
  });
});
