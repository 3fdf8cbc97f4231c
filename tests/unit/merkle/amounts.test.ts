import { describe, expect, it } from "vitest";
import { formatEth } from "@/lib/core/answers";
import { parseAmount } from "@/lib/domains/merkle/amounts";

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
