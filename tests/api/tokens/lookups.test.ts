// Public lookups: fetch-deployed-by-fid, fetch-deployed-by-address, fetch-by-pool-address(es), and the
// deprecated /api/tokens/search.
import { beforeAll, describe, expect, it } from "vitest";
import { GET as deployedByFid } from "@/app/api/tokens/fetch-deployed-by-fid/route";
import { GET as deployedByAddress } from "@/app/api/tokens/fetch-deployed-by-address/route";
import { GET as byPool } from "@/app/api/tokens/fetch-by-pool-address/route";
import { POST as byPools } from "@/app/api/tokens/fetch-by-pool-addresses/route";
import { GET as search } from "@/app/api/tokens/search/route";
import { sql } from "kysely";
import { getAddress } from "viem";
import { db } from "@/db";
import { call, expectError } from "@/tests/helpers/http";
import { address, insertTokens, poolId } from "./fixtures";

const names = (body: { data: Array<{ name: string }> }) => body.data.map((t) => t.name);

beforeAll(async () => {
  await insertTokens([
    ...Array.from({ length: 12 }, (_, i) => ({
      requestor_fid: 77,
      msg_sender: address("e", 77),
      name: `Seventy ${i}`,
      pool_address: address("b", 100 + i),
    })),
    { requestor_fid: 78, name: "V4 Pool Token", pool_address: poolId(9) },
    { requestor_fid: 78, name: "Same Pool Elsewhere", pool_address: address("b", 100), chain_id: 42161 },
  ]);
});

describe("GET /api/tokens/fetch-deployed-by-fid", () => {
  it("pages a FID's tokens by 10, newest first, by cursor", async () => {
    const first = await call(deployedByFid, "/api/tokens/fetch-deployed-by-fid?fid=77");
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toHaveLength(10);
    expect(first.body.total).toBe(12);
    expect(first.body).not.toHaveProperty("tokensDeployed");
    const rest = await call(deployedByFid, `/api/tokens/fetch-deployed-by-fid?fid=77&cursor=${first.body.cursor}`);
    expect(names(rest.body)).toEqual(["Seventy 1", "Seventy 0"]);
    expect(rest.body.cursor).toBeNull();
  });

  it("pages by `page` and `limit` (up to 20, larger clamped), as the earlier API's clients do", async () => {
    const page = async (qs: string) => {
      const res = await call(deployedByFid, `/api/tokens/fetch-deployed-by-fid?fid=77&${qs}`);
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    const second = await page("page=2&limit=5");
    expect(names(second)).toEqual(["Seventy 6", "Seventy 5", "Seventy 4", "Seventy 3", "Seventy 2"]);
    expect(second).toMatchObject({ total: 12, hasMore: true });
    const last = await page("page=3&limit=5");
    expect(names(last)).toEqual(["Seventy 1", "Seventy 0"]);
    expect(last).toMatchObject({ total: 12, hasMore: false, cursor: null });
    expect(names(await page("page=2&limit=500"))).toEqual([]); // 20 a page: 12 tokens are one page
    expect(names(await page("limit=500"))).toHaveLength(12);
    expect(names(await page("offset=10"))).toEqual(["Seventy 1", "Seventy 0"]);
    // With a cursor, page and offset count from it.
    const first = await page("limit=5");
    expect(names(await page(`cursor=${first.cursor}&page=2&limit=3`))).toEqual(["Seventy 3", "Seventy 2", "Seventy 1"]);
    for (const [qs, name] of [
      ["limit=0", "limit"],
      ["page=-1", "page"],
      ["limit=abc", "limit"],
      ["page=1001&limit=20", "page"],
      ["offset=1001", "offset"],
    ]) {
      const error = expectError(
        await call(deployedByFid, `/api/tokens/fetch-deployed-by-fid?fid=77&${qs}`),
        400,
        "invalid_request",
      );
      expect(error.error, qs).toMatch(new RegExp(`^${name}: `));
    }
  });

  it("rejects a missing or non-numeric fid", async () => {
    for (const qs of ["", "fid=abc", "fid=0"]) {
      expect(
        expectError(await call(deployedByFid, `/api/tokens/fetch-deployed-by-fid?${qs}`), 400, "invalid_request").error,
      ).toMatch(/^fid: /);
    }
  });
});

describe("GET /api/tokens/fetch-deployed-by-address", () => {
  it("lists the tokens an address deployed (msg_sender)", async () => {
    const res = await call(deployedByAddress, `/api/tokens/fetch-deployed-by-address?address=${address("e", 77)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(12);
    expect(names(res.body)[0]).toBe("Seventy 11");
    const none = await call(deployedByAddress, `/api/tokens/fetch-deployed-by-address?address=${address("e", 1)}`);
    expect(none.body).toEqual({ data: [], total: 0, cursor: null, hasMore: false });
  });

  it("pages by `page` and `limit` as fetch-deployed-by-fid does", async () => {
    const res = await call(
      deployedByAddress,
      `/api/tokens/fetch-deployed-by-address?address=${address("e", 77)}&page=2&limit=10`,
    );
    expect(res.status, res.text).toBe(200);
    expect(names(res.body)).toEqual(["Seventy 1", "Seventy 0"]);
    expect(res.body).toMatchObject({ total: 12, hasMore: false });
  });

  it("answers page=0 with the first page, as page=1", async () => {
    const url = `/api/tokens/fetch-deployed-by-address?address=${address("e", 77)}&limit=5`;
    const zero = await call(deployedByAddress, `${url}&page=0`);
    expect(zero.status, zero.text).toBe(200);
    expect(names(zero.body)).toEqual(["Seventy 11", "Seventy 10", "Seventy 9", "Seventy 8", "Seventy 7"]);
    expect(zero.body).toEqual((await call(deployedByAddress, `${url}&page=1`)).body);
  });

  it("rejects a bad address or cursor", async () => {
    expect(
      expectError(
        await call(deployedByAddress, "/api/tokens/fetch-deployed-by-address?address=nope"),
        400,
        "invalid_request",
      ).error,
    ).toMatch(/^address: /);
    const cursor = "eyJpZCI6bnVsbH0";
    expect(
      expectError(
        await call(
          deployedByAddress,
          `/api/tokens/fetch-deployed-by-address?address=${address("e", 77)}&cursor=${cursor}`,
        ),
        400,
        "invalid_request",
      ).error,
    ).toMatch(/^cursor: /);
  });
});

describe("GET /api/tokens/fetch-by-pool-address", () => {
  it("answers { data: Token } for a 20-byte pool (default chain first) or a v4 pool id, {} when none", async () => {
    const res = await call(
      byPool,
      `/api/tokens/fetch-by-pool-address?poolAddress=${address("b", 100).toUpperCase().replace("0X", "0x")}`,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ name: "Seventy 0", chain_id: 8453 });
    expect((await call(byPool, `/api/tokens/fetch-by-pool-address?poolAddress=${poolId(9)}`)).body.data!.name).toBe(
      "V4 Pool Token",
    );
    const none = await call(byPool, `/api/tokens/fetch-by-pool-address?poolAddress=${address("b", 9999)}`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({});
  });

  it("rejects anything that is neither 20 nor 32 bytes of hex", async () => {
    for (const bad of ["", "0x1234", `0x${"a".repeat(50)}`, "pool"]) {
      expect(
        expectError(await call(byPool, `/api/tokens/fetch-by-pool-address?poolAddress=${bad}`), 400, "invalid_request")
          .error,
      ).toMatch(/^poolAddress: /);
    }
  });
});

describe("POST /api/tokens/fetch-by-pool-addresses", () => {
  it("maps lowercase pool addresses to tokens, in one answer, skipping unknown pools", async () => {
    const poolAddresses = [
      address("b", 101).toUpperCase().replace("0X", "0x"),
      poolId(9),
      address("b", 9999),
      address("b", 101),
    ];
    const res = await call(byPools, "/api/tokens/fetch-by-pool-addresses", { body: { poolAddresses } });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual([address("b", 101), poolId(9)].sort());
    expect(res.body.data[address("b", 101)].name).toBe("Seventy 1");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect((await call(byPools, "/api/tokens/fetch-by-pool-addresses", { body: { poolAddresses: [] } })).body).toEqual({
      data: {},
    });
  });

  it("a string that is no pool address matches no pool and does not fail the others (the platform's string[])", async () => {
    const poolAddresses = ["", "0xnope", "WETH", ` ${address("b", 101)} `, "x".repeat(5000)];
    const res = await call(byPools, "/api/tokens/fetch-by-pool-addresses", { body: { poolAddresses } });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.data)).toEqual([address("b", 101)]);
  });

  it("writes each token as fetch-by-pool-address does, member for member and in the same order", async () => {
    // The answer's JSON text is written by PostgreSQL (tokenJson), the single lookup's by toTokenObject.
    const edges = await insertTokens([
      {
        name: 'Quote " back\\slash \n newline \u0001 é 🚀',
        symbol: "Ω",
        img_url: null,
        tx_hash: null,
        requestor_fid: null,
        pool_address: address("b", 700),
      },
      {
        factory_address: null,
        locker_address: null,
        cast_hash: "0xcafe",
        presale_id: 3,
        pool_address: poolId(701),
        starting_market_cap: 1e-7,
      },
      {
        starting_market_cap: 1e21,
        deployed_at: new Date("2025-03-04T05:06:07.999Z"),
        pool_address: address("b", 702),
        warnings: ["UNUSUAL_TICK", "UNUSUAL_PAIR_ADDRESS"],
      },
      {
        starting_market_cap: Number.NaN,
        supply: "123456789012345678901234567890123456789",
        pool_address: address("b", 703),
        contract_address: "So11111111111111111111111111111111111111112",
      },
      {
        metadata: {
          "10": "integer-like key",
          description: "d",
          socialMediaUrls: [{ platform: "x", url: "https://x.com/a" }],
          auditUrls: [],
          nested: { b: [1, 2.5, null, true] },
        },
        tags: { champagne: true, verified: true, knownInterfaceDeployer: false },
        pool_address: address("b", 704),
        factory_address: address("f", 1),
        locker_address: address("e", 1),
        extensions: JSON.stringify({
          fees: {
            hook_address: "0xb429d62f8f3bFFb98CdB9569533eA23bF0Ba28CC",
            type: "static",
            tokenFee: 10_000,
            pairedFee: 10_000,
            recipients: [{ bps: 10_000, admin: getAddress(address("a", 1)), recipient: getAddress(address("a", 2)) }],
          },
        }),
      },
    ]);
    // Microseconds are truncated to milliseconds, as a JavaScript Date would.
    await db()
      .updateTable("tokens")
      .set({ created_at: sql`'2025-01-02 03:04:05.678999+00'` })
      .where("id", "=", edges[2].id)
      .execute();
    const pools = edges.map((t) => t.pool_address!);
    const many = await call(byPools, "/api/tokens/fetch-by-pool-addresses", { body: { poolAddresses: pools } });
    expect(many.status, many.text).toBe(200);
    expect(Object.keys(many.body.data).sort()).toEqual([...pools].sort());
    for (const pool of pools) {
      const one = await call(byPool, `/api/tokens/fetch-by-pool-address?poolAddress=${pool}`);
      expect(one.status, one.text).toBe(200);
      expect(many.body.data[pool]).toStrictEqual(one.body.data);
      expect(Object.keys(many.body.data[pool]!)).toEqual(Object.keys(one.body.data!));
    }
    expect(many.body.data[address("b", 702)].created_at).toBe("2025-01-02T03:04:05.678Z");
    expect(many.body.data[address("b", 703)].starting_market_cap).toBeNull();
    expect(many.body.data[address("b", 704)].factory_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(many.body.data[address("b", 704)].factory_address).not.toBe(address("f", 1));
  });

  it("accepts 100 addresses and rejects 101, items that are not strings (by index) and bad bodies", async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => address("b", 100 + i));
    const ok = await call(byPools, "/api/tokens/fetch-by-pool-addresses", { body: { poolAddresses: hundred } });
    expect(Object.keys(ok.body.data)).toHaveLength(12);
    const tooMany = await call(byPools, "/api/tokens/fetch-by-pool-addresses", {
      body: { poolAddresses: [...hundred, address("b", 1)] },
    });
    expect(expectError(tooMany, 400, "invalid_request").error).toMatch(/^poolAddresses: /);
    const badItem = await call(byPools, "/api/tokens/fetch-by-pool-addresses", {
      body: { poolAddresses: [address("b", 1), 7] },
    });
    expect(expectError(badItem, 400, "invalid_request").error).toMatch(/^poolAddresses\.1: /);
    expectError(
      await call(byPools, "/api/tokens/fetch-by-pool-addresses", { body: { pools: [] } }),
      400,
      "invalid_request",
    );
    expectError(
      await call(byPools, "/api/tokens/fetch-by-pool-addresses", { body: "not json" }),
      400,
      "invalid_request",
    );
    expectError(
      await call(byPools, "/api/tokens/fetch-by-pool-addresses", { body: { poolAddresses: "0x1" } }),
      400,
      "invalid_request",
    );
  });
});

describe("GET /api/tokens/search (deprecated)", () => {
  it("searches with q and fids, 5 per page, with a Deprecation header", async () => {
    const res = await call(search, "/api/tokens/search?q=seventy&fids=77,78");
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toHaveLength(5);
    expect(res.body.total).toBe(12);
    expect(res.headers.get("deprecation")).toBe("true");
    const next = await call(search, `/api/tokens/search?q=seventy&fids=77&cursor=${res.body.cursor}`);
    expect(names(next.body)).toEqual(["Seventy 6", "Seventy 5", "Seventy 4", "Seventy 3", "Seventy 2"]);
  });

  it("rejects bad values by name", async () => {
    for (const [qs, param] of [
      [`q=${"x".repeat(101)}`, "q"],
      ["fids=a", "fids"],
      ["cursor=%%%", "cursor"],
    ]) {
      expect(
        expectError(await call(search, `/api/tokens/search?${qs}`), 400, "invalid_request").error.startsWith(
          `${param}: `,
        ),
      ).toBe(true);
    }
  });
});
