// How `q` is matched: addresses exactly, 3+ letter runs by trigram substring, everything else by prefix; names in
// NFKC, their case left to SQL (tests/api/tokens/search-fold.test.ts).
import { describe, expect, it } from "vitest";
import { classifySearchTerm, escapeLike } from "@/lib/domains/tokens/queries/filters";

describe("classifySearchTerm", () => {
  it.each([
    ["", undefined],
    ["   ", undefined],
    [
      "0xAbCdEf0123456789abcdef0123456789ABCDEF01",
      { kind: "address", value: "0xabcdef0123456789abcdef0123456789abcdef01" },
    ],
    [`0x${"A".repeat(64)}`, { kind: "poolId", value: `0x${"a".repeat(64)}` }],
    [`０ｘ${"ＡＢ".repeat(20)}`, { kind: "address", value: `0x${"ab".repeat(20)}` }], // fullwidth
    ["Based", { kind: "substring", value: "Based" }],
    [" moon dog ", { kind: "substring", value: "moon dog" }],
    ["ßüñ", { kind: "substring", value: "ßüñ" }],
    ["ＰＥＰＥ", { kind: "substring", value: "PEPE" }],
    ["Cafe\u0301", { kind: "substring", value: "Caf\u00e9" }],
    ["１００％", { kind: "substring", value: "100%" }], // a fullwidth wildcard is a wildcard, escaped as one
    ["\u3000ｐｅ\u3000", { kind: "prefix", value: "pe" }],
    ["ﬁ", { kind: "prefix", value: "fi" }],
    ["a", { kind: "prefix", value: "a" }],
    ["AI", { kind: "prefix", value: "AI" }],
    ["a b", { kind: "prefix", value: "a b" }],
    ["$$$", { kind: "prefix", value: "$$$" }],
    ["0x12", { kind: "substring", value: "0x12" }], // not a whole address: a substring like any other
  ])("%j", (input, expected) => {
    expect(classifySearchTerm(input)).toEqual(expected);
  });

  it("escapes LIKE wildcards and the escape character", () => {
    expect(escapeLike("100%_a\\b")).toBe("100\\%\\_a\\\\b");
  });
});
