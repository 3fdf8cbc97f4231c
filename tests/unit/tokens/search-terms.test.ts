// How `q` is matched: addresses exactly, 3+ letter runs by trigram substring, everything else by prefix.
import { describe, expect, it } from "vitest";
import { classifySearchTerm, escapeLike, prefixUpperBound } from "@/lib/domains/tokens/queries/filters";

describe("classifySearchTerm", () => {
  it.each([
    ["", undefined],
    ["   ", undefined],
    [
      "0xAbCdEf0123456789abcdef0123456789ABCDEF01",
      { kind: "address", value: "0xabcdef0123456789abcdef0123456789abcdef01" },
    ],
    [`0x${"A".repeat(64)}`, { kind: "poolId", value: `0x${"a".repeat(64)}` }],
    ["Based", { kind: "substring", value: "based" }],
    [" moon dog ", { kind: "substring", value: "moon dog" }],
    ["ßüñ", { kind: "substring", value: "ßüñ" }],
    ["a", { kind: "prefix", value: "a" }],
    ["AI", { kind: "prefix", value: "ai" }],
    ["a b", { kind: "prefix", value: "a b" }],
    ["$$$", { kind: "prefix", value: "$$$" }],
    ["0x12", { kind: "substring", value: "0x12" }], // not a whole address: a substring like any other
  ])("%j", (input, expected) => {
    expect(classifySearchTerm(input)).toEqual(expected);
  });

  it("escapes LIKE wildcards and the escape character", () => {
    expect(escapeLike("100%_a\\b")).toBe("100\\%\\_a\\\\b");
  });

  it("bounds a prefix from above in byte order, skipping surrogates and the last code point", () => {
    expect(prefixUpperBound("ab")).toBe("ac");
    expect(prefixUpperBound("a")).toBe("b");
    expect(prefixUpperBound("z$")).toBe("z%");
    expect(prefixUpperBound("\ud7ff")).toBe("\ue000");
    expect(prefixUpperBound("😀")).toBe("😁");
    expect(prefixUpperBound("a\u{10ffff}")).toBe("b");
    expect(prefixUpperBound("\u{10ffff}")).toBeNull();
  });
});
