// Keyset pagination of GET /api/tokens walked end to end under every order (newest and the four market
// sorts, both directions), with and without a filter, while tokens are added during the walk: every
// row that existed when the walk began is seen exactly once, in order, and nothing is seen twice.
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/tokens/route";
import { call } from "@/tests/helpers/http";
import { insertMarket, insertTokens } from "./fixtures";

type Market = { mc: number | null; tx: number | null; ch24: number | null; ch1: number | null };
type Model = { id: number; deployed: string; fid: number; market: Market | null };

const model: Model[] = [];
let added = 0;

/** Same-second groups of three, one of them half a millisecond later: the cursor keeps microseconds. */
const deployedAt = (i: number) =>
  `2025-01-01T00:${String(Math.floor(i / 3) % 60).padStart(2, "0")}:00.${i % 3 === 2 ? "000500" : "000000"}Z`;

async function addTokens(count: number, deployed: (i: number) => string, market: (i: number) => Market | null) {
  const inputs = Array.from({ length: count }, (_, i) => ({
    requestor_fid: 1 + (i % 2),
    deployed_at: deployed(i),
    name: `Walk ${added + i}`,
  }));
  const rows = await insertTokens(inputs);
  const markets = rows.map((r, i) => ({ id: r.id, m: market(i) }));
  await insertMarket(
    markets.flatMap(({ id, m }) =>
      m
        ? [{ token_id: id, market_cap_usd: m.mc, tx_count_24h: m.tx, price_change_24h: m.ch24, price_change_1h: m.ch1 }]
        : [],
    ),
  );
  rows.forEach((r, i) => {
    model.push({ id: r.id, deployed: inputs[i].deployed_at, fid: inputs[i].requestor_fid, market: markets[i].m });
  });
  added += count;
}

beforeAll(async () => {
  // Duplicated values, NULLs in some columns, and tokens with no market row at all.
  await addTokens(45, deployedAt, (i) =>
    i % 4 === 3
      ? null
      : {
          mc: i % 6 === 0 ? null : (i % 5) * 100.5,
          tx: i % 7 === 0 ? null : i % 4,
          ch24: (i % 3) - 1.25,
          ch1: i % 5 === 0 ? null : -(i % 4),
        },
  );
});

const SORTS = {
  "": null,
  "market-cap": "mc",
  "tx-h24": "tx",
  "price-percent-h24": "ch24",
  "price-percent-h1": "ch1",
} as const;

function expected(rows: Model[], sortBy: keyof typeof SORTS, dir: "asc" | "desc"): number[] {
  const sign = dir === "asc" ? 1 : -1;
  const key = SORTS[sortBy];
  const value = (r: Model) => (key ? (r.market?.[key] ?? null) : null);
  return [...rows]
    .sort((a, b) => {
      if (!key) return sign * (a.deployed < b.deployed ? -1 : a.deployed > b.deployed ? 1 : a.id - b.id);
      const va = value(a);
      const vb = value(b);
      if (va === null && vb !== null) return 1; // NULLs last in both directions
      if (va !== null && vb === null) return -1;
      if (va !== null && vb !== null && va !== vb) return sign * (va - vb);
      return sign * (a.id - b.id);
    })
    .map((r) => r.id);
}

async function walk(sortBy: keyof typeof SORTS, dir: "asc" | "desc", filter: string): Promise<number[]> {
  const seen: number[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const qs: string = [`limit=7`, `sort=${dir}`, sortBy && `sortBy=${sortBy}`, filter, cursor && `cursor=${cursor}`]
      .filter(Boolean)
      .join("&");
    const res = await call(GET, `/api/tokens?${qs}`);
    expect(res.status, res.text).toBe(200);
    seen.push(...res.body.data.map((t: { id: number }) => t.id));
    cursor = res.body.cursor;
    if (page === 1) {
      // Rows added mid-walk: newer than all, with market values at the top, the bottom and in between.
      await addTokens(
        3,
        () => "2026-01-01T00:00:00.000001Z",
        (i) => ({ mc: [1e9, 0, 250][i], tx: [1000, 0, 2][i], ch24: [99, -99, 0][i], ch1: [5, -5, 0][i] }),
      );
    }
    if (!cursor) return seen;
  }
  throw new Error("the walk did not end");
}

describe("keyset pagination of GET /api/tokens", () => {
  for (const sortBy of Object.keys(SORTS) as Array<keyof typeof SORTS>) {
    for (const dir of ["desc", "asc"] as const) {
      for (const [label, filter, keep] of [
        ["all tokens", "", () => true],
        ["fid=1", "fid=1", (r: Model) => r.fid === 1],
      ] as const) {
        it(`${sortBy || "newest"} ${dir}, ${label}`, async () => {
          const before = model.filter(keep);
          const ids = await walk(sortBy, dir, filter);
          expect(new Set(ids).size, "a row was seen twice").toBe(ids.length);
          const existing = new Set(before.map((r) => r.id));
          expect(ids.filter((id) => existing.has(id))).toEqual(expected(before, sortBy, dir));
        });
      }
    }
  }
});
