// GET /api/presales over indexed presale rows: filters, sort, bounds, totals.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/db";
import { GET } from "@/app/api/presales/route";
import { call, expectError } from "@/tests/helpers/http";

const presale = "0x00000000000000000000000000000000000000a5";

beforeAll(async () => {
  // Rows as the refresh job writes them (its own test drives it from the chain).
  const rows = [
    { chain_id: 8453, presale_id: 1, status: 1, started_at: new Date("2026-01-01T00:00:00Z") },
    { chain_id: 8453, presale_id: 2, status: 2, started_at: new Date("2026-01-02T00:00:00Z") },
    { chain_id: 8453, presale_id: 3, status: 4, started_at: new Date("2026-01-03T00:00:00Z") },
    { chain_id: 8453, presale_id: 4, status: 5, started_at: new Date("2026-01-04T00:00:00Z") },
    { chain_id: 84532, presale_id: 1, status: 3, started_at: new Date("2026-01-05T00:00:00Z") },
    { chain_id: 84532, presale_id: 2, status: 1, started_at: null },
  ];
  await db()
    .insertInto("presales")
    .values(
      rows.map((r) => ({ ...r, presale_address: presale, eth_raised: "1500000000000000000", deployment_config: null })),
    )
    .execute();
});

const list = async (query: string) => {
  const res = await call(GET, `/api/presales${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { presales: any[]; totalCount: number };
};
const ids = (body: { presales: any[] }) => body.presales.map((p) => `${p.chain_id}:${p.presale_id}`);

describe("GET /api/presales", () => {
  it("lists newest first by default with the total", async () => {
    const body = await list("");
    expect(body.totalCount).toBe(6);
    expect(ids(body)).toEqual(["84532:1", "8453:4", "8453:3", "8453:2", "8453:1", "84532:2"]);
    expect(body.presales[0]).toMatchObject({
      status: 3,
      status_name: "SuccessfulMaximumHit",
      eth_raised: "1500000000000000000",
      presale_address: "0x00000000000000000000000000000000000000A5",
    });
  });

  it("sorts ascending, pages with limit and offset", async () => {
    expect(ids(await list("?sort=asc&limit=2&offset=1"))).toEqual(["8453:2", "8453:3"]);
    expect((await list("?limit=2&offset=1")).totalCount).toBe(6);
  });

  it("filters by chain and by status: a number, successful (2, 3, 5) or all", async () => {
    expect(ids(await list("?chainId=84532"))).toEqual(["84532:1", "84532:2"]);
    expect(ids(await list("?status=1"))).toEqual(["8453:1", "84532:2"]);
    const successful = await list("?status=successful");
    expect(ids(successful)).toEqual(["84532:1", "8453:4", "8453:2"]);
    expect(successful.totalCount).toBe(3);
    expect((await list("?status=all&chainId=8453")).totalCount).toBe(4);
  });

  it("rejects out-of-range and unknown parameters values", async () => {
    for (const q of [
      "?limit=0",
      "?limit=-1",
      "?offset=-1",
      "?offset=10001",
      "?status=failed",
      "?sort=up",
      "?chainId=abc",
      "?limit=1&limit=2",
    ]) {
      expectError(await call(GET, `/api/presales${q}`), 400, "invalid_request");
    }
    expect(expectError(await call(GET, "/api/presales?status=Successful"), 400, "invalid_request").error).toBe(
      "status: must be all, successful or a PresaleStatus number from 0 to 255",
    );
  });
});
