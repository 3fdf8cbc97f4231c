// checksum() answers EIP-55 exactly as viem's getAddress does, and refuses what is not an address.
import { describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { checksum } from "@/lib/core/evm";

describe("checksum", () => {
  it("answers viem's EIP-55 form for any case of random addresses", () => {
    let seed = 7;
    const digit = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return "0123456789abcdefABCDEF"[seed % 22]!;
    };
    for (let i = 0; i < 2_000; i++) {
      const address = `0x${Array.from({ length: 40 }, digit).join("")}`;
      expect(checksum(address)).toBe(getAddress(address.toLowerCase()));
    }
    expect(checksum(null)).toBeNull();
  });

  it("refuses text that is not an address", () => {
    for (const bad of ["0x1234", `0x${"g".repeat(40)}`, "1234567890123456789012345678901234567890ab"])
      expect(() => checksum(bad)).toThrow(/Address/);
  });
});
