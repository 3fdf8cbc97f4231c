// GET /api/tokens: every parameter, its edges and its 400s; counts; related user and market data.
import { beforeAll, describe, expect, it } from "vitest";
import { GET, OPTIONS } from "@/app/api/tokens/route";
import { call, expectError } from "@/tests/helpers/http";
import { address, insertMarket, insertTokens, insertUser, poolId } from "./fixtures";
import { encodeCursor } from "@/lib/domains/tokens/cursor";

const get = (qs: string) => call(GET, `/api/tokens${qs ? `?${qs}` : ""}`);
const names = (res: { body: { data: Array<{ name: string }> } }) => res.body.data.map((t) => t.name);

let ids: Record<string, number> = {};

beforeAll(async () => {
  const rows = await insertTokens([
    {
      name: "Based Cat",
      symbol: "BCAT",
      requestor_fid: 7,
      msg_sender: address("e", 1),
      deployed_at: "2025-03-01T00:00:00Z",
    },
    {
      name: "Moon Dog",
      symbol: "MDOG",
      requestor_fid: 7,
      msg_sender: address("e", 1),
      pair: "USDC",
      deployed_at: "2025-03-02T00:00:00Z",
    },
    {
      name: "Frog 100%",
      symbol: "FRG_",
      requestor_fid: 8,
      msg_sender: address("e", 2),
      chain_id: 42161,
      deployed_at: "2025-03-03T00:00:00Z",
    },
    {
      name: "Ab Token",
      symbol: "AB",
      requestor_fid: 9,
      social_context: { interface: "Bankr" },
      deployed_at: "2025-03-04T00:00:00Z",
    },
    {
      name: "Zebra",
      symbol: "ZB",
      requestor_fid: null,
      tags: { champagne: true, verified: false, knownInterfaceDeployer: false },
      deployed_at: "2025-03-05T00:00:00Z",
    },
    {
      name: "V4 Thing",
      symbol: "VFOUR",
      pool_address: poolId(4),
      requestor_fid: 9,
      deployed_at: "2025-03-06T00:00:00Z",
    },
  ]);
  ids = Object.fromEntries(rows.map((r, i) => [["cat", "dog", "frog", "ab", "zebra", "v4"][i], r.id]));
  await insertMarket([
    {
      token_id: ids.cat,
      market_cap_usd: 5000,
      price_usd: 0.00005,
      volume_24h_usd: 10,
      tx_count_24h: 3,
      price_change_1h: 1.5,
      price_change_24h: -2,
    },
    { token_id: ids.dog, market_cap_usd: 9000, tx_count_24h: 1 },
  ]);
  await insertUser(7, "alice", [address("f", 7)]);
});

describe("GET /api/tokens", () => {
  it("lists newest first with the envelope, counts and the 2 s edge cache", async () => {
    const res = await get("");
    expect(res.status, res.text).toBe(200);
    expect(names(res)).toEqual(["V4 Thing", "Zebra", "Ab Token", "Frog 100%", "Moon Dog", "Based Cat"]);
    expect(res.body).toMatchObject({ total: 6, cursor: null, tokensDeployed: 6 });
    expect(res.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=2, stale-while-revalidate=2");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const cat = res.body.data[5];
    expect(cat.contract_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(cat.contract_address).not.toBe(cat.contract_address.toLowerCase()); // checksummed
    expect(res.body.data[0].pool_address).toBe(poolId(4)); // a v4 pool id is kept as stored
    expect(cat).not.toHaveProperty("related");
  });

  it("answers a CORS preflight", () => {
    expect(OPTIONS().status).toBe(204);
  });

  it("sort=asc reverses the order", async () => {
    expect(names(await get("sort=asc")).slice(0, 2)).toEqual(["Based Cat", "Moon Dog"]);
    expect(names(await get("sort=ASC")).slice(0, 2)).toEqual(["Based Cat", "Moon Dog"]); // any case, as booleans
  });

  describe("q", () => {
    it("matches a case-insensitive substring of name or symbol (3+ characters)", async () => {
      expect(names(await get("q=ASED"))).toEqual(["Based Cat"]);
      expect(names(await get("q=mdo"))).toEqual(["Moon Dog"]);
      expect(names(await get("q=%20dog%20"))).toEqual(["Moon Dog"]); // trimmed
    });

    it("matches one and two characters as a prefix of name or symbol", async () => {
      expect(names(await get("q=ab"))).toEqual(["Ab Token"]);
      expect(names(await get("q=z"))).toEqual(["Zebra"]);
      expect(names(await get("q=og"))).toEqual([]); // inside a word: not a prefix
    });

    it("takes LIKE wildcards literally", async () => {
      expect(names(await get("q=100%25"))).toEqual(["Frog 100%"]);
      expect(names(await get("q=frg_"))).toEqual(["Frog 100%"]);
      expect(names(await get("q=%25"))).toEqual([]);
      expect(names(await get("q=_"))).toEqual([]);
    });

    it("matches an address exactly as the contract or the pool, and a 32-byte pool id", async () => {
      const { body } = await get("");
      const cat = body.data[5];
      expect(names(await get(`q=${cat.contract_address}`))).toEqual(["Based Cat"]);
      expect(names(await get(`q=${cat.pool_address!.toUpperCase().replace("0X", "0x")}`))).toEqual(["Based Cat"]);
      expect(names(await get(`q=${poolId(4)}`))).toEqual(["V4 Thing"]);
      expect(names(await get(`q=${address("c", 999999)}`))).toEqual([]);
    });

    it("an empty q is no filter; more than 100 characters is a 400", async () => {
      expect((await get("q=")).body.total).toBe(6);
      expect((await get(`q=${"a".repeat(100)}`)).status).toBe(200);
      expect(expectError(await get(`q=${"a".repeat(101)}`), 400, "invalid_request").error).toMatch(/^q: /);
    });
  });

  describe("filters", () => {
    it("fid, fids (union with fid), msgSender", async () => {
      expect(names(await get("fid=7"))).toEqual(["Moon Dog", "Based Cat"]);
      expect(names(await get("fids=8,9"))).toEqual(["V4 Thing", "Ab Token", "Frog 100%"]);
      expect(names(await get("fid=7&fids=8"))).toEqual(["Frog 100%", "Moon Dog", "Based Cat"]);
      expect(names(await get(`msgSender=${address("e", 1).toUpperCase().replace("0X", "0x")}`))).toEqual([
        "Moon Dog",
        "Based Cat",
      ]);
    });

    it("tokensDeployed counts the creator's tokens whatever the other filters", async () => {
      const res = await get("fid=7&q=based");
      expect(res.body).toMatchObject({ total: 1, tokensDeployed: 2 });
      expect((await get("q=based")).body).toMatchObject({ total: 1, tokensDeployed: 6 });
    });

    it("pairAddress (20-byte or v4 id), pair, socialInterface, chainId, champagne, startDate", async () => {
      const { body } = await get("");
      expect(names(await get(`pairAddress=${body.data[5].pool_address}`))).toEqual(["Based Cat"]);
      expect(names(await get(`pairAddress=${poolId(4)}`))).toEqual(["V4 Thing"]);
      expect(names(await get("pair=usdc"))).toEqual(["Moon Dog"]);
      expect((await get("pair=ALL")).body.total).toBe(6);
      expect(names(await get("socialInterface=bankr"))).toEqual(["Ab Token"]);
      expect(names(await get("chainId=42161"))).toEqual(["Frog 100%"]);
      expect(names(await get("champagne=true"))).toEqual(["Zebra"]);
      expect((await get("champagne=false")).body.total).toBe(6);
      const march4 = Date.UTC(2025, 2, 4) / 1000;
      expect(names(await get(`startDate=${march4}`))).toEqual(["V4 Thing", "Zebra"]); // strictly after
      expect(names(await get(`startDate=${march4}.25`))).toEqual(["V4 Thing", "Zebra"]); // Date.now() / 1000
    });
  });

  describe("limit, offset and counts", () => {
    it("limit 0 returns no rows but the counts", async () => {
      const res = await get("limit=0&fid=7");
      expect(res.body).toEqual({ data: [], total: 2, cursor: null, hasMore: true, tokensDeployed: 2 });
    });

    it("limit pages with a cursor; offset skips", async () => {
      const first = await get("limit=2");
      expect(names(first)).toEqual(["V4 Thing", "Zebra"]);
      expect(first.body.total).toBe(6);
      expect(typeof first.body.cursor).toBe("string");
      expect(names(await get(`limit=2&cursor=${first.body.cursor}`))).toEqual(["Ab Token", "Frog 100%"]);
      expect(names(await get("limit=2&offset=4"))).toEqual(["Moon Dog", "Based Cat"]);
      const past = await get("limit=2&offset=10");
      expect(past.body).toMatchObject({ data: [], total: 6, cursor: null });
    });

    it("limit 20 and offset 1000 are the largest accepted; a larger limit is clamped to 20", async () => {
      expect((await get("limit=20")).status).toBe(200);
      const clamped = await get("limit=21");
      expect(clamped.status, clamped.text).toBe(200);
      expect(names(clamped)).toEqual(names(await get("limit=20")));
      expect((await get("offset=1000")).status).toBe(200);
    });
  });

  describe("includeUser and includeMarket", () => {
    it("adds the creator's stored profile as related.user (null when unknown)", async () => {
      const res = await get("includeUser=true&fids=7,8");
      const [frog, dog] = res.body.data;
      expect(dog.related!.user).toMatchObject({ fid: 7, username: "alice" });
      expect(frog.related!.user).toBeNull();
      expect(frog.related).not.toHaveProperty("market");
    });

    it("adds stored market data as related.market (null without a row)", async () => {
      const res = await get("includeMarket=1&fid=7");
      const [dog, cat] = res.body.data;
      expect(cat.related!.market).toEqual({
        marketCap: 5000,
        priceUsd: 0.00005,
        volume24h: 10,
        priceChangePercent1h: 1.5,
        priceChangePercent24h: -2,
        txCount24h: 3,
        updatedAt: expect.any(String),
        stale: false,
      });
      expect(dog.related!.market).toMatchObject({ marketCap: 9000, priceUsd: null });
      expect((await get("includeMarket=true&q=zebra")).body.data[0].related).toEqual({ market: null });
    });
  });

  describe("sortBy", () => {
    it("market-cap puts tokens without a value last, in both directions", async () => {
      expect(names(await get("sortBy=market-cap")).slice(0, 3)).toEqual(["Moon Dog", "Based Cat", "V4 Thing"]);
      expect(names(await get("sortBy=market-cap&sort=asc")).slice(0, 2)).toEqual(["Based Cat", "Moon Dog"]);
      expect(names(await get("sortBy=market-cap&sort=asc")).slice(2)).toEqual([
        "Frog 100%",
        "Ab Token",
        "Zebra",
        "V4 Thing",
      ]);
    });

    it("tx-h24, price-percent-h24 and price-percent-h1 sort by their column", async () => {
      expect(names(await get("sortBy=tx-h24")).slice(0, 2)).toEqual(["Based Cat", "Moon Dog"]);
      expect(names(await get("sortBy=price-percent-h24")).slice(0, 2)).toEqual(["Based Cat", "V4 Thing"]);
      expect(names(await get("sortBy=price-percent-h1&sort=asc")).slice(0, 2)).toEqual(["Based Cat", "Moon Dog"]);
    });

    it("deployed-at (the platform's name for the default order) is the default order, cursors included", async () => {
      for (const dir of ["desc", "asc"]) {
        const plain = await get(`limit=2&sort=${dir}`);
        const alias = await get(`limit=2&sort=${dir}&sortBy=deployed-at`);
        expect(alias.status, alias.text).toBe(200);
        expect(alias.body).toEqual(plain.body);
        const next = await get(`limit=2&sort=${dir}&sortBy=deployed-at&cursor=${plain.body.cursor}`);
        expect(names(next)).toEqual(names(await get(`limit=2&sort=${dir}&cursor=${plain.body.cursor}`)));
      }
      expect(names(await get("sortBy=deployed-at"))).toEqual([
        "V4 Thing",
        "Zebra",
        "Ab Token",
        "Frog 100%",
        "Moon Dog",
        "Based Cat",
      ]);
      const reused = await get(`sortBy=market-cap&cursor=${(await get("limit=2&sortBy=deployed-at")).body.cursor}`);
      expect(reused.body).toEqual((await get("sortBy=market-cap")).body);
    });
  });

  describe("the platform's cursors and pages", () => {
    const platformCursor = (instant: string) => Buffer.from(JSON.stringify({ id: instant })).toString("base64");

    it("a platform cursor ({ id: deployed_at without a zone }) continues past that instant, in either direction", async () => {
      const cursor = platformCursor("2025-03-04T00:00:00");
      expect(names(await get(`limit=2&cursor=${encodeURIComponent(cursor)}`))).toEqual(["Frog 100%", "Moon Dog"]);
      expect(names(await get(`sort=asc&limit=2&cursor=${encodeURIComponent(cursor)}`))).toEqual(["Zebra", "V4 Thing"]);
      const next = await get(`limit=2&cursor=${cursor}`);
      expect(next.body.cursor).not.toBeNull();
      expect(names(await get(`limit=2&cursor=${next.body.cursor}`))).toEqual(["Based Cat"]);
    });

    it("a cursor taken under another sort starts over at page one, as on the platform", async () => {
      const newest = encodeCursor({ value: "2025-03-03T00:00:00.000000Z", id: ids.frog, order: "deployed_at:desc" });
      const first = await get("sortBy=market-cap&limit=3");
      const reused = await get(`sortBy=market-cap&limit=3&cursor=${newest}`);
      expect(reused.status, reused.text).toBe(200);
      expect(reused.body).toEqual(first.body);
      expect(names(await get(`sort=asc&limit=2&cursor=${newest}`))).toEqual(["Based Cat", "Moon Dog"]);
      const marketCursor = encodeCursor({ value: 9000, id: ids.dog, order: "market-cap:desc" });
      expect(names(await get(`limit=2&cursor=${marketCursor}`))).toEqual(["V4 Thing", "Zebra"]);
    });

    it("?page=N (the earlier API's page numbers) answers that page with hasMore and total", async () => {
      const one = await get("page=1&limit=4");
      expect(one.status, one.text).toBe(200);
      expect(one.body).toMatchObject({ total: 6, hasMore: true });
      expect(names(one)).toEqual(["V4 Thing", "Zebra", "Ab Token", "Frog 100%"]);
      const two = await get("page=2&limit=4");
      expect(two.body).toMatchObject({ total: 6, hasMore: false, cursor: null });
      expect(names(two)).toEqual(["Moon Dog", "Based Cat"]);
      expect((await get("page=3&limit=4")).body).toMatchObject({ data: [], hasMore: false, total: 6 });
      expect(expectError(await get("page=-1"), 400, "invalid_request").error).toMatch(/^page: /);
      expect(expectError(await get("page=200&limit=20"), 400, "invalid_request").error).toMatch(/^page: /);
    });

    it("?page=0, as a scanner counting from 0 sends it, answers the first page as the platform does", async () => {
      const zero = await get("page=0&limit=4");
      expect(zero.status, zero.text).toBe(200);
      expect(names(zero)).toEqual(["V4 Thing", "Zebra", "Ab Token", "Frog 100%"]);
      expect(zero.body).toMatchObject({ total: 6, hasMore: true });
      expect(zero.body).toEqual((await get("page=1&limit=4")).body);
    });
  });

  describe("bad values are 400s naming the parameter", () => {
    const cases: Array<[string, string]> = [
      ["fid=abc", "fid"],
      ["fid=0", "fid"],
      ["fid=1&fid=2", "fid"],
      ["fids=1,,2", "fids"],
      [`fids=${Array.from({ length: 101 }, (_, i) => i + 1).join(",")}`, "fids"],
      ["msgSender=0x123", "msgSender"],
      ["pairAddress=0x1234", "pairAddress"],
      ["pair=W%20ETH", "pair"],
      [`pair=${"A".repeat(33)}`, "pair"],
      ["sort=up", "sort"],
      ["sortBy=volume", "sortBy"],
      ["socialInterface=a%00b", "socialInterface"],
      ["q=abc%00", "q"],
      [`socialInterface=${"x".repeat(65)}`, "socialInterface"],
      ["cursor=not-a-cursor!", "cursor"],
      [`cursor=${Buffer.from("{}").toString("base64")}`, "cursor"],
      [`cursor=${"a".repeat(600)}`, "cursor"],
      ["startDate=-1", "startDate"],
      ["startDate=1e9", "startDate"],
      ["startDate=1.", "startDate"],
      ["startDate=1732770000000", "startDate"],
      ["startDate=yesterday", "startDate"],
      ["limit=-1", "limit"],
      ["limit=ten", "limit"],
      ["offset=1001", "offset"],
      ["offset=-5", "offset"],
      ["includeUser=yes", "includeUser"],
      ["includeMarket=2", "includeMarket"],
      ["chainId=0", "chainId"],
      ["chainId=base", "chainId"],
      ["champagne=maybe", "champagne"],
    ];
    it.each(cases)("%s", async (qs, param) => {
      const error = expectError(await get(qs), 400, "invalid_request");
      expect(error.error.startsWith(`${param}: `), error.error).toBe(true);
    });

    it("a cursor whose position does not fit its order", async () => {
      const raw = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
      for (const bad of [
        { id: 5, tiebreaker: 1, order: "deployed_at:desc" },
        { id: "2025-02-31T00:00:00Z", tiebreaker: 1, order: "deployed_at:desc" },
        { id: "0000-01-01T00:00:00Z", tiebreaker: 1, order: "deployed_at:desc" },
        { id: 1.5, tiebreaker: 1, order: "tx-h24:desc" },
        { id: "x", tiebreaker: 1, order: "market-cap:desc" },
        { id: 1, tiebreaker: 0, order: "market-cap:desc" },
        { id: 1, tiebreaker: 1, order: "name:desc" },
        { id: "2025-02-30T00:00:00" },
        { id: "2025-03-01T00:00:00", order: "deployed_at:desc" },
      ]) {
        expect(expectError(await get(`cursor=${raw(bad)}&sortBy=market-cap`), 400, "invalid_request").error).toMatch(
          /^cursor: /,
        );
      }
    });
  });
});
