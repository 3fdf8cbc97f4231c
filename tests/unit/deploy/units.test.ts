// Exact unit conversions (percent -> bps / fee millionths) and market cap -> starting tick.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { decimalOf, percentToBps, percentToMillionths } from "@/lib/domains/launch/deploy/units";
import {
  DEFAULT_TICK,
  MAX_TICK,
  MIN_TICK,
  marketCapToTick,
  sqrtRatioAtTick,
  standardUpperTick,
  tickAtSqrtRatio,
  tickToMarketCap,
} from "@/lib/domains/launch/deploy/tick";

describe("percent to chain units", () => {
  it.each([
    [100, 10_000n],
    [40, 4_000n],
    [33.33, 3_333n],
    [0.07, 7n],
    [0.01, 1n],
    [0, 0n],
    [33.333, null],
    [0.001, null],
    [1e-7, null],
  ])("percent %s is %s bps", (percent, bps) => expect(percentToBps(percent)).toBe(bps));

  it.each([
    [1, 10_000n],
    [5, 50_000n],
    [0.25, 2_500n],
    [0.0001, 1n],
    [2.5678, 25_678n],
    [0.00001, null],
    [1.23456, null],
  ])("percent %s is %s fee millionths", (percent, millionths) => expect(percentToMillionths(percent)).toBe(millionths));

  it("reads a number as the decimal its shortest form spells", () => {
    expect(decimalOf(0.1)).toEqual({ digits: 1n, scale: 1 });
    expect(decimalOf(1.5e-7)).toEqual({ digits: 15n, scale: 8 });
    expect(decimalOf(1e21)).toEqual({ digits: 10n ** 21n, scale: 0 });
    expect(() => decimalOf(-1)).toThrow(RangeError);
  });
});

describe("TickMath port", () => {
  it("matches Uniswap's reference values", () => {
    expect(sqrtRatioAtTick(0)).toBe(1n << 96n);
    expect(sqrtRatioAtTick(MIN_TICK)).toBe(4295128739n);
    expect(sqrtRatioAtTick(MAX_TICK)).toBe(1461446703485210103287273052203988822378723970342n);
    expect(tickAtSqrtRatio(1n << 96n)).toBe(0);
    expect(tickAtSqrtRatio(sqrtRatioAtTick(-230_400))).toBe(-230_400);
    expect(tickAtSqrtRatio(sqrtRatioAtTick(-230_400) - 1n)).toBe(-230_401);
  });
});

describe("market cap to starting tick", () => {
  it("10 WETH is the platform's default tick -230400, 20 WETH its 20-ETH preset -223400", () => {
    expect(marketCapToTick(10, 18)).toBe(DEFAULT_TICK);
    expect(marketCapToTick(20, 18)).toBe(-223_400);
    expect(marketCapToTick(1, 18)).toBe(-253_400);
  });

  it("equals floor(log_1.0001(marketCap * 1e-11) / 200) * 200 away from tick boundaries", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-3, max: 1e5, noNaN: true }), (cap) => {
        const exact = Math.log(cap * 1e-11) / Math.log(1.0001);
        fc.pre(Math.abs(exact - Math.round(exact)) > 1e-6);
        expect(marketCapToTick(cap, 18)).toBe(Math.floor(exact / 200) * 200);
      }),
      { numRuns: 300 },
    );
  });

  it("never starts above the asked market cap, and less than one spacing below it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 4 }), (units, places) => {
        const cap = units / 10 ** places;
        const tick = marketCapToTick(cap, 18)!;
        expect(Math.abs(tick % 200)).toBe(0);
        // price(tick) <= cap * 1e18 / 1e29 < price(tick + 200), compared exactly as sqrtPriceX96^2 against price * 2^192
        const num = (BigInt(units) * 10n ** 18n) << 192n;
        const den = 10n ** BigInt(places + 29);
        expect(sqrtRatioAtTick(tick) ** 2n * den <= num).toBe(true);
        expect(sqrtRatioAtTick(tick + 200) ** 2n * den > num).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("takes the paired token's decimals into account and rejects what no pool can price", () => {
    expect(marketCapToTick(10, 6)).toBe(Math.floor(Math.log(10 * 1e-11 * 1e-12) / Math.log(1.0001) / 200) * 200);
    expect(marketCapToTick(1e-30, 18)).toBeNull();
    expect(marketCapToTick(0, 18)).toBeNull();
    expect(standardUpperTick(18)).toBe(-120_000);
    expect(tickToMarketCap(DEFAULT_TICK)).toBeCloseTo(9.87, 2);
  });
});
