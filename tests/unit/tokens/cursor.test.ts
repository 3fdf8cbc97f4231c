// Cursors round-trip, stay opaque (base64url JSON), and reject anything this service did not issue.
import { describe, expect, it } from "vitest";
import { encodeCursor, zCursor } from "@/lib/domains/tokens/cursor";

describe("token list cursors", () => {
  const cases: Parameters<typeof encodeCursor>[0][] = [
    { value: "2025-03-01T12:00:00.123456Z", id: 42, order: "deployed_at:desc" },
    { value: 1234.5678, id: 7, order: "market-cap:asc" },
    { value: -3.25, id: 9, order: "price-percent-h1:desc" },
    { value: 17, id: 1, order: "tx-h24:desc" },
    { value: null, id: 99, order: "price-percent-h24:asc" },
  ];

  it.each(cases)("round-trips %o", (cursor) => {
    const encoded = encodeCursor(cursor);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(encoded, "base64url").toString())).toEqual({
      id: cursor.value,
      tiebreaker: cursor.id,
      order: cursor.order,
    });
    expect(zCursor.parse(encoded)).toEqual(cursor);
  });

  it("accepts standard base64 with padding too", () => {
    const json = JSON.stringify({ id: 5, tiebreaker: 3, order: "market-cap:desc" });
    expect(zCursor.parse(Buffer.from(json).toString("base64"))).toEqual({ value: 5, id: 3, order: "market-cap:desc" });
  });

  it("accepts the platform's cursors: { id } alone, a deployed_at instant without a zone", () => {
    const platform = (id: string) => Buffer.from(JSON.stringify({ id })).toString("base64");
    expect(zCursor.parse(platform("2025-11-19T13:30:47"))).toEqual({
      value: "2025-11-19T13:30:47.000Z",
      id: null,
      order: null,
    });
    expect(zCursor.parse(platform("2025-11-19T13:30:47.25Z"))).toMatchObject({ value: "2025-11-19T13:30:47.250Z" });
  });

  const raw = (o: unknown) => Buffer.from(typeof o === "string" ? o : JSON.stringify(o)).toString("base64url");
  it.each([
    ["not base64", "%%%"],
    ["not JSON", raw("hello")],
    ["JSON of another shape", raw({ a: 1 })],
    ["an unknown order", raw({ id: 1, tiebreaker: 1, order: "name:asc" })],
    ["a time that does not exist", raw({ id: "2025-02-30T00:00:00Z", tiebreaker: 1, order: "deployed_at:asc" })],
    ["a number for the time order", raw({ id: 1, tiebreaker: 1, order: "deployed_at:asc" })],
    ["a string for a market order", raw({ id: "1", tiebreaker: 1, order: "market-cap:asc" })],
    ["a fraction of a transaction", raw({ id: 0.5, tiebreaker: 1, order: "tx-h24:asc" })],
    ["a transaction count beyond int4", raw({ id: 2 ** 31, tiebreaker: 1, order: "tx-h24:asc" })],
    ["a tiebreaker that is not a row id", raw({ id: 1, tiebreaker: -1, order: "market-cap:asc" })],
    ["too long", "a".repeat(513)],
    ["a platform cursor of a day that does not exist", raw({ id: "2025-02-30T00:00:00" })],
    ["a platform cursor with other members", raw({ id: "2025-02-01T00:00:00", page: 2 })],
    ["a platform cursor that is not an instant", raw({ id: "yesterday" })],
  ])("rejects %s", (_label, value) => {
    expect(zCursor.safeParse(value).success).toBe(false);
  });
});
