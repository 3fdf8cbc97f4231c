import { describe, expect, it } from "vitest";
import { formatEth } from "@/lib/core/answers";
import fc from "fast-check";
import { decimalWordInto, parseAmount } from "@/lib/domains/merkle/amounts";

describe("parseAmount", () => {
  it("reads decimal and hex strings and exact JSON number text", () => {
    expect(parseAmount("1000000000000000000000", false)).toBe(10n ** 21n);
    expect(parseAmount("0x10", false)).toBe(16n);
    expect(parseAmount("1e+21", true)).toBe(10n ** 21n);
    expect(parseAmount("1.5e1", true)).toBe(15n);
    expect(parseAmount("100e-2", true)).toBe(1n);
    expect(parseAmount("0", true)).toBe(0n);
    expect(parseAmount("-0", true)).toBe(0n);
    expect(parseAmount((2n ** 256n - 1n).toString(), false)).toBe(2n ** 256n - 1n);
  });

  it("refuses negatives, fractions, overflow and other text", () => {
    for (const [text, isNumber] of [
      ["-1", true],
      ["1.5", true],
      ["5e-3", true],
      ["1e80", true],
      [(2n ** 256n).toString(), false],
      ["-1", false],
      ["1.0", false],
      [" 1", false],
      ["", false],
      ["0x", false],
      ["abc", false],
    ] as const) {
      expect(parseAmount(text, isNumber), `${text}`).toBeNull();
    }
  });
});

describe("formatEth", () => {
  it("is exact, with at least one fractional digit", () => {
    expect(formatEth("1000000000000000000")).toBe("1.0");
    expect(formatEth("1")).toBe("0.000000000000000001");
    expect(formatEth("0")).toBe("0.0");
    expect(formatEth("123456789012345678901234567890")).toBe("123456789012.34567890123456789");
    expect(formatEth(2n * 10n ** 17n)).toBe("0.2");
  });
});

describe("decimalWordInto", () => {
  const word = (text: string) => {
    const out = new Uint8Array(36).fill(9);
    const ok = decimalWordInto(Buffer.from(`x${text}y`), 1, 1 + text.length, out, 2);
    return { ok, out };
  };

  it("writes canonical decimals as 32 big-endian bytes, as the bigint would", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), (value) => {
        const { ok, out } = word(value.toString());
        expect(ok).toBe(true);
        expect(Buffer.from(out.subarray(2, 34)).toString("hex")).toBe(value.toString(16).padStart(64, "0"));
        expect([...out.subarray(0, 2), ...out.subarray(34)]).toEqual([9, 9, 9, 9]);
      }),
      { numRuns: 500 },
    );
    for (const value of [0n, 1n, 10n ** 7n, 10n ** 18n, 2n ** 255n, 2n ** 256n - 1n])
      expect(Buffer.from(word(value.toString()).out.subarray(2, 34)).toString("hex")).toBe(
        value.toString(16).padStart(64, "0"),
      );
  });

  it("refuses what is not a canonical decimal below 2^256 (parseAmount decides those)", () => {
    for (const text of [
      "",
      "01",
      "00",
      "1a",
      "-1",
      "1.0",
      "0x10",
      (2n ** 256n).toString(),
      "9".repeat(78),
      "1".repeat(79),
    ])
      expect(word(text).ok).toBe(false);
  });
});
