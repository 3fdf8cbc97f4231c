// Exact unit conversions for deploy inputs: a JSON number is read as the decimal its shortest form spells
// (what the client wrote), then scaled with integer arithmetic. A value finer than the unit is rejected,
// never rounded.
import { TOKEN_SUPPLY } from "@/lib/platform/chain";

/** A non-negative decimal as digits / 10^scale. */
export type Decimal = { digits: bigint; scale: number };

/** The exact decimal a JSON number stands for (String(n) is the shortest round-trip form: 0.07 stays 0.07). */
export function decimalOf(value: number): Decimal {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`not a non-negative finite number: ${value}`);
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!match) throw new RangeError(`unexpected number form ${String(value)}`);
  const [, whole, fraction = "", exponent = "0"] = match;
  let digits = BigInt(whole + fraction);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits, scale };
}

/** value x unitsPerOne as an integer, or null when the value has more precision than the unit. */
export function toUnits(value: number, unitsPerOne: bigint): bigint | null {
  const { digits, scale } = decimalOf(value);
  const scaled = digits * unitsPerOne;
  const divisor = 10n ** BigInt(scale);
  return scaled % divisor === 0n ? scaled / divisor : null;
}

/** Percent to basis points (1% = 100 bps): at most 2 decimal places. */
export const percentToBps = (percent: number) => toUnits(percent, 100n);

/** Percent to fee millionths (1% = 10,000; 100% = 1,000,000): at most 4 decimal places. */
export const percentToMillionths = (percent: number) => toUnits(percent, 10_000n);

/** Decimal places a unit allows, for messages. */
export const BPS_PLACES = 2;
export const MILLIONTHS_PLACES = 4;

/** Whole tokens of the 100 billion supply to extension basis points, rounded up (as the platform SDK rounds). */
export function airdropBps(tokens: number): bigint {
  const supply = TOKEN_SUPPLY / 10n ** 18n;
  return (BigInt(tokens) * 10_000n + supply - 1n) / supply;
}
