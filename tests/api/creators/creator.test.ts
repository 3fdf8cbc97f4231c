import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { sql } from "kysely";
import { GET } from "@/app/api/creator/[address]/route";
import { db } from "@/db";
import { call, expectError } from "@/tests/helpers/http";
import { startFakeNeynar, useNeynar, type FakeNeynar } from "@/tests/api/users/neynar-fake";
import { addr, insertToken, insertUser } from "./fixtures";

const WALLET = addr(0xc1);
const OTHER_WALLET = addr(0xc2);
const BOT = addr(0xb07);
const profile = (address: string) => call(GET, `/api/creator/${address}`, { params: { address } });

beforeAll(async () => {
  useNeynar(null);
  await insertUser({ fid: 30, username: "carol", verified: [WALLET, OTHER_WALLET] });
  await insertToken({
    name: "c-1",
    msgSender: WALLET,
    deployedAt: new Date("2025-01-01T00:00:00Z"),
    marketCap: 1000.5,
  });
  await insertToken({
    name: "c-2",
    msgSender: BOT,
    requestorFid: 30,
    deployedAt: new Date("2025-02-01T00:00:00Z"),
    marketCap: 2000,
  });
  await insertToken({
    name: "c-3",
    msgSender: OTHER_WALLET,
    chainId: 10,
    deployedAt: new Date("2025-03-01T00:00:00Z"),
  });
  for (let i = 0; i < 4; i++)
    await insertToken({ name: `c-more-${i}`, msgSender: WALLET, deployedAt: new Date(Date.UTC(2024, 5, i + 1)) });
  await insertToken({ name: "not-carol", msgSender: BOT, requestorFid: 31, marketCap: 99 });
});

describe("GET /api/creator/{address}", () => {
  it("answers the profile and launch statistics of every wallet and request of the creator", async () => {
    const res = await profile(getAddress(WALLET));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toContain("s-maxage=30");
    expect(res.body.user!.fid).toBe(30);
    expect(res.body.address).toBe(getAddress(WALLET));
    expect(res.body.stats).toEqual({
      tokensLaunched: 7,
      firstLaunchAt: "2024-06-01T00:00:00.000Z",
      latestLaunchAt: "2025-03-01T00:00:00.000Z",
      tokensByChain: { "8453": 6, "10": 1 },
      totalMarketCapUsd: 3000.5,
      complete: true,
      sampleSize: 1000,
    });
    expect(res.body.recentTokens.map((t: any) => t.name)).toEqual(["c-3", "c-2", "c-1", "c-more-3", "c-more-2"]);
    expect(res.body.recentTokens[1].related.market).toMatchObject({ marketCap: 2000 });
    expect(res.body.recentTokens[0].related.market).toBeNull();
  });

  it("answers a wallet nobody holds with its deployments and a null user", async () => {
    const res = await profile(BOT);
    expect(res.status).toBe(200);
    expect(res.body.user).toBeNull();
    expect(res.body.stats.tokensLaunched).toBe(2);
    const empty = await profile(addr(0xe));
    expect(empty.body).toMatchObject({
      user: null,
      stats: {
        tokensLaunched: 0,
        firstLaunchAt: null,
        latestLaunchAt: null,
        tokensByChain: {},
        totalMarketCapUsd: 0,
        complete: true,
      },
      recentTokens: [],
    });
  });

  it("aggregates the newest 1,000 tokens of a bigger creator and says the figures are partial", async () => {
    const big = addr(0xb16);
    await sql`
      INSERT INTO tokens (deployed_at, contract_address, chain_id, name, symbol, msg_sender, admin)
      SELECT timestamptz '2020-01-01' + make_interval(hours => g), lpad(to_hex(g + 16777216), 40, '0'), 8453, 'big ' || g, 'BIG', ${big}, ${big}
      FROM generate_series(1, 1005) AS g
    `.execute(db());
    await db()
      .updateTable("tokens")
      .set({ contract_address: sql`'0x' || contract_address` })
      .where("msg_sender", "=", big)
      .execute();
    const res = await profile(big);
    expect(res.status, res.text).toBe(200);
    expect(res.body.stats).toMatchObject({
      tokensLaunched: 1005,
      firstLaunchAt: "2020-01-01T01:00:00.000Z",
      latestLaunchAt: new Date(Date.UTC(2020, 0, 1) + 1005 * 3_600_000).toISOString(),
      tokensByChain: { "8453": 1000 },
      complete: false,
    });
    expect(res.body.recentTokens).toHaveLength(5);
  });

  it.each(["0x12", "carol", `0x${"g".repeat(40)}`])("rejects address %s", async (a) => {
    expectError(await profile(a), 400, "invalid_request");
  });

  describe("with a profile provider", () => {
    let neynar: FakeNeynar;
    beforeAll(async () => {
      neynar = await startFakeNeynar();
      neynar.add({ fid: 40, username: "dave", verified: [addr(0xd1)] });
      useNeynar(neynar);
    });
    afterAll(async () => {
      useNeynar(null);
      await neynar.close();
    });

    it("fetches the holder's profile from the provider", async () => {
      await insertToken({ name: "d-1", msgSender: addr(0xd1) });
      const res = await profile(addr(0xd1));
      expect(res.body.user).toMatchObject({ fid: 40, username: "dave" });
      expect(res.body.stats.tokensLaunched).toBe(1);
    });

    it("still answers the statistics when the provider fails", async () => {
      neynar.fail({ status: 503 });
      const res = await profile(addr(0xd2));
      expect(res.status, res.text).toBe(200);
      expect(res.body.user).toBeNull();
    });
  });
});
