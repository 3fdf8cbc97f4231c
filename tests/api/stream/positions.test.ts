// Positions compare as unsigned 64-bit xids, then sequence numbers, without BigInt; a cursor's xid is read in the
// form PostgreSQL writes it (no leading zeros), which that comparison needs.
import { describe, expect, it } from "vitest";
import { encodeCursor } from "@/lib/core/cursor";
import { zStreamCursor } from "@/lib/domains/stream/events";
import { comparePositions } from "@/lib/domains/tokens/queries/events";

const sign = (a: [string, number], b: [string, number]) =>
  Math.sign(comparePositions({ xid: a[0], seq: a[1] }, { xid: b[0], seq: b[1] }));

describe("stream positions", () => {
  it("orders by xid as a number, then by sequence", () => {
    expect(sign(["9", 5], ["10", 1])).toBe(-1);
    expect(sign(["10", 1], ["9", 5])).toBe(1);
    expect(sign(["123", 1], ["124", 0])).toBe(-1);
    expect(sign(["18446744073709551615", 0], ["18446744073709551614", 9])).toBe(1);
    expect(sign(["77", 3], ["77", 4])).toBe(-1);
    expect(sign(["77", 4], ["77", 4])).toBe(0);
  });

  it("reads a cursor's xid without leading zeros", () => {
    const parsed = zStreamCursor.parse(encodeCursor({ x: "000123", s: 2, t: 0 }));
    expect(parsed).toEqual({ xid: "123", seq: 2, at: 0 });
    expect(sign([parsed.xid, parsed.seq], ["99", 7])).toBe(1);
  });
});
