// GET /api/tokens?q=: search folds the term and the names alike (NFKC, then PostgreSQL's lower()), through the
// search indexes.
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/tokens/route";
import { db } from "@/db";
import { classifySearchTerm, filterConditions } from "@/lib/domains/tokens/queries/filters";
import { call } from "@/tests/helpers/http";
import { address, insertTokens } from "./fixtures";

const found = async (q: string) => {
  const res = await call(GET, `/api/tokens?q=${encodeURIComponent(q)}`);
  expect(res.status, res.text).toBe(200);
  return (res.body.data as Array<{ name: string }>).map((t) => t.name).sort();
};

/** The full width form of printable ASCII (U+FF01..U+FF5E). */
const fullwidth = (text: string) =>
  text.replace(/[!-~]/g, (c) => String.fromCodePoint(c.codePointAt(0)! - 0x21 + 0xff01));

beforeAll(async () => {
  await insertTokens([
    { name: "Pepe Coin", symbol: "PEPE" },
    { name: "Café Crème", symbol: "CAFE" },
    { name: "Cafe\u0301 Noir", symbol: "NOIR" }, // stored decomposed
    { name: "ＭＯＯＮ Ｒｏｃｋｅｔ", symbol: "ＭＯＯＮ" }, // stored full width
    { name: "ΟΔΥΣΣΕΑΣ", symbol: "ODY" },
    { name: "İSTANBUL", symbol: "IST" },
    { name: "Frog 100%", symbol: "FRG" },
    { name: "Frog 1000", symbol: "FRK" },
    { name: "Plain", symbol: "PLN", contract_address: address("c", 0xf01d) },
  ]);
});

describe("GET /api/tokens?q= folds text", () => {
  it("finds a name by its full width spelling, and a full width name by its plain spelling", async () => {
    expect(await found("ＰＥＰＥ")).toEqual(["Pepe Coin"]);
    expect(await found("ｐｅ")).toEqual(["Pepe Coin"]); // a prefix
    expect(await found("moon")).toEqual(["ＭＯＯＮ Ｒｏｃｋｅｔ"]);
    expect(await found("MO")).toEqual(["ＭＯＯＮ Ｒｏｃｋｅｔ"]);
  });

  it("matches composed and decomposed accents with each other, in either case", async () => {
    const both = ["Cafe\u0301 Noir", "Café Crème"].sort();
    expect(await found("Cafe\u0301")).toEqual(both);
    expect(await found("café")).toEqual(both);
    expect(await found("CAFÉ")).toEqual(both);
    expect(await found("CAFE\u0301 N")).toEqual(["Cafe\u0301 Noir"]);
  });

  it("finds a name in capitals by itself and by its lowercase, whatever JavaScript's case mapping", async () => {
    // "ΟΔΥΣΣΕΑΣ".toLowerCase() ends in a final sigma and "İ".toLowerCase() is two code points; lower() folds both
    // to the letters it folds the stored name to.
    expect(await found("ΟΔΥΣΣΕΑΣ")).toEqual(["ΟΔΥΣΣΕΑΣ"]);
    expect(await found("οδυσσεασ")).toEqual(["ΟΔΥΣΣΕΑΣ"]);
    expect(await found("İSTANBUL")).toEqual(["İSTANBUL"]);
    expect(await found("istanbul")).toEqual(["İSTANBUL"]);
  });

  it("takes a full width wildcard as literally as its plain form, and reads a full width address as an address", async () => {
    expect(await found("１００％")).toEqual(["Frog 100%"]);
    expect(await found("％")).toEqual([]);
    expect(await found(fullwidth(address("c", 0xf01d)))).toEqual(["Plain"]);
  });

  it.each([
    ["ＰＥＰＥ", ["tokens_name_trgm", "tokens_symbol_trgm"]],
    ["ｐｅ", ["tokens_name_prefix", "tokens_symbol_prefix"]],
  ])("is served by the search indexes (%s)", async (q, indexes) => {
    const plan = await db()
      .transaction()
      .execute(async (trx) => {
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        return trx
          .selectFrom("tokens as t")
          .select("t.id")
          .where((eb) => eb.and(filterConditions(eb, { q: classifySearchTerm(q) })))
          .explain();
      });
    const text = plan.map((row) => Object.values(row)[0]).join("\n");
    for (const index of indexes) expect(text).toContain(index);
  });
});
