// What every answer goes through: JSON with bigints as strings, memoised EIP-55 checksums, the error mapping.
import { describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { toJson } from "@/lib/core/json";
import { toHttpError } from "@/lib/core/errors";
import { checksum } from "@/lib/core/evm";

describe("toJson", () => {
  it("writes plain answers as JSON.stringify does, and bigints anywhere as decimal strings", () => {
    const plain = { a: 1, b: ["x", null], c: { d: true } };
    expect(toJson(plain)).toBe(JSON.stringify(plain));
    expect(toJson({ wei: 2n ** 200n, list: [1n, { deep: -3n }] })).toBe(
      `{"wei":"${2n ** 200n}","list":["1",{"deep":"-3"}]}`,
    );
  });

  it("still fails on what JSON cannot hold", () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => toJson(loop)).toThrow(TypeError);
  });
});

describe("checksum", () => {
  it("gives viem's EIP-55 form, the same on a repeated call, and null for nothing", () => {
    const lower = "0x5a5ab7a3251961b64248eb669fb2e9595a995c52";
    expect(checksum(lower)).toBe(getAddress(lower));
    expect(checksum(lower)).toBe(getAddress(lower));
    expect(checksum(null)).toBeNull();
    expect(checksum(undefined)).toBeNull();
    expect(checksum("")).toBeNull();
    expect(() => checksum("0x123")).toThrow();
  });
});

describe("toHttpError", () => {
  it("answers a NUL that reached Postgres (text or JSON) with 400, not 500", () => {
    for (const code of ["22021", "22P05"])
      expect(toHttpError(Object.assign(new Error("invalid byte sequence"), { code }))).toMatchObject({
        status: 400,
        code: "invalid_request",
      });
  });
});
