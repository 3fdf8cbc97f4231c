import { describe, expect, it } from "vitest";
import { keccak_256 } from "@noble/hashes/sha3";
import { keccak256 as viemKeccak } from "viem";
import fc from "fast-check";
import { keccak256, keccak256Into } from "@/lib/domains/merkle/keccak";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("keccak256 (32- and 64-byte inputs)", () => {
  it("matches @noble/hashes on random inputs", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 64, maxLength: 64 })),
        (input) => {
          expect(hex(keccak256(input))).toBe(hex(keccak_256(input)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("matches viem on known inputs and writes at offsets without touching neighbours", () => {
    const zeros = new Uint8Array(64);
    expect(`0x${hex(keccak256(zeros))}`).toBe(viemKeccak(zeros));
    expect(`0x${hex(keccak256(zeros.subarray(0, 32)))}`).toBe(viemKeccak(zeros.subarray(0, 32)));
    const input = Uint8Array.from({ length: 100 }, (_, i) => i);
    const out = new Uint8Array(40).fill(7);
    keccak256Into(input, 3, 64, out, 4);
    expect(hex(out.subarray(4, 36))).toBe(hex(keccak_256(input.subarray(3, 67))));
    expect([...out.subarray(0, 4), ...out.subarray(36)]).toEqual([7, 7, 7, 7, 7, 7, 7, 7]);
  });

  it("rejects other lengths", () => {
    expect(() => keccak256(new Uint8Array(33))).toThrow();
  });
});

describe("writeUint256", () => {
  it("writes 32 big-endian bytes like viem's numberToBytes", async () => {
    const { uint256Bytes } = await import("@/lib/domains/merkle/hashing");
    const { numberToBytes } = await import("viem");
    for (const v of [0n, 1n, 15n, 16n, 255n, 256n, 10n ** 18n, 2n ** 255n + 12345n, 2n ** 256n - 1n]) {
      expect(hex(uint256Bytes(v))).toBe(hex(numberToBytes(v, { size: 32 })));
    }
  });
});

describe("batch hashing", () => {
  it("hashes many inputs in one call: keccak256, the leaf's double keccak256, and sorted node pairs", async () => {
    const { batchInput, batchOutput, keccak64Batch, leafHashBatch, BATCH } = await import(
      "@/lib/domains/merkle/keccak"
    );
    const { nodeHashBatch, nodeHashInto } = await import("@/lib/domains/merkle/hashing");
    const inputs = Array.from({ length: BATCH }, (_, j) =>
      Uint8Array.from({ length: 64 }, (_, k) => (j * 31 + k * 7) & 255),
    );
    inputs[5].copyWithin(32, 0, 32); // a pair of equal words
    const load = (count: number) => {
      for (let j = 0; j < count; j++) batchInput.set(inputs[j], 64 * j);
    };
    const output = (j: number) => hex(batchOutput.subarray(32 * j, 32 * j + 32));
    load(BATCH);
    keccak64Batch(BATCH);
    for (const j of [0, 1, 500, BATCH - 1]) expect(output(j)).toBe(hex(keccak_256(inputs[j])));
    load(9);
    leafHashBatch(9);
    for (let j = 0; j < 9; j++) expect(output(j)).toBe(hex(keccak_256(keccak_256(inputs[j]))));
    load(300);
    nodeHashBatch(300);
    const expected = new Uint8Array(32);
    for (let j = 0; j < 300; j++) {
      nodeHashInto(inputs[j], 0, inputs[j], 32, expected, 0);
      expect(output(j)).toBe(hex(expected));
    }
  });
});
