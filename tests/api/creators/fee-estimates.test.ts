import { describe, expect, it } from "vitest";
import { db } from "@/db";
import { getAddress, parseEther } from "viem";
import { GET as byPool, OPTIONS } from "@/app/api/tokens/estimate-rewards-by-pool-address/route";
import { GET as byToken } from "@/app/api/get-estimated-uncollected-fees/[address]/route";
import { indexByAddress } from "@/lib/domains/launch/indexer/lookup";
import { FEE_IN, useTestChain } from "@/tests/helpers/chain";
import { call, expectError } from "@/tests/helpers/http";
import { atPoolPrice, buy, claimFees, launch, payTokenRewards, payWethRewards, storeLaunch } from "./chain-fixtures";
import { addr, insertToken } from "./fixtures";

const chain = useTestChain();
const estimateByPool = (pool: string, qs = "") =>
  call(byPool, `/api/tokens/estimate-rewards-by-pool-address?poolAddress=${pool}${qs}`);
const estimateByToken = (token: string, qs = "") =>
  call(byToken, `/api/get-estimated-uncollected-fees/${token}${qs}`, { params: { address: token } });

describe("deprecated fee estimates", () => {
  it("answer what each recipient can still collect, in the token and the paired token", async () => {
    const c = chain();
    const l = await launch(c, [6_000, 4_000]);
    await storeLaunch(c, l);
    await payWethRewards(c, l.token, parseEther("1"));
    await payTokenRewards(c, l, parseEther("5000"));
    const expected = {
      tokenAddress: l.token,
      poolAddress: getAddress(l.pool),
      chainId: 8453,
      pairedTokenAddress: c.contracts.weth,
      recipients: [
        {
          recipient: l.recipients[0],
          admin: l.recipients[0],
          rewardBps: 6000,
          tokenAmount: parseEther("3000").toString(),
          pairedAmount: parseEther("0.6").toString(),
        },
        {
          recipient: l.recipients[1],
          admin: l.recipients[1],
          rewardBps: 4000,
          tokenAmount: parseEther("2000").toString(),
          pairedAmount: parseEther("0.4").toString(),
        },
      ],
      totals: { tokenAmount: parseEther("5000").toString(), pairedAmount: parseEther("1").toString() },
    };
    const res = await estimateByPool(l.pool);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("deprecation")).toBe("true");
    expect(res.headers.get("cache-control")).toBe("no-store");
    // The first recipient holds tokens, and the token has no stored price: its worth in USD is unknown.
    expect(res.body).toEqual({ ...expected, userRewards: null });
    const same = await estimateByToken(l.token.toLowerCase());
    expect(same.headers.get("deprecation")).toBe("true");
    // Beside ours, the members the platform's earlier SDK types (UncollectedFeesResponse): the pool's currencies in
    // its order, and what all recipients can collect in each.
    const weth = { chainId: 8453, address: c.contracts.weth, symbol: "WETH", decimals: 18, name: "Wrapped Ether" };
    const launched = { chainId: 8453, address: l.token, symbol: "TEST", decimals: 18, name: "Test Token" };
    const wethFirst = BigInt(c.contracts.weth) < BigInt(l.token);
    const inOrder = <T>(ofWeth: T, ofToken: T) => (wethFirst ? [ofWeth, ofToken] : [ofToken, ofWeth]);
    const [token0, token1] = inOrder(weth, launched);
    const [all0, all1] = inOrder(parseEther("1").toString(), parseEther("5000").toString());
    expect(same.body).toEqual({
      ...expected,
      lockerAddress: getAddress(c.contracts.locker),
      lpNftId: expect.any(Number),
      token0UncollectedRewards: all0,
      token1UncollectedRewards: all1,
      token0,
      token1,
    });
    expect(same.body.lpNftId).toBeGreaterThan(0);
    const [one0, one1] = inOrder(parseEther("0.4").toString(), parseEther("2000").toString());
    expect(
      (await estimateByToken(l.token, `?rewardRecipientAddress=${l.recipients[1]!.toLowerCase()}`)).body,
    ).toMatchObject({ token0UncollectedRewards: one0, token1UncollectedRewards: one1, totals: expected.totals });
    expect(
      (await estimateByToken(l.token, `?rewardRecipientAddress=${addr(0xabc)}`)).body, // holds nothing
    ).toMatchObject({ token0UncollectedRewards: "0", token1UncollectedRewards: "0" });
    expectError(await estimateByToken(l.token, "?rewardRecipientAddress=0x12"), 400, "invalid_request");

    await claimFees(c, l.recipients[0]!, c.contracts.weth);
    const after = await estimateByToken(l.token, "?chainId=8453");
    expect(after.body.recipients[0]).toMatchObject({ pairedAmount: "0", tokenAmount: parseEther("3000").toString() });
    expect(after.body.totals.pairedAmount).toBe(parseEther("0.4").toString());
  });

  it("answer userRewards, the first recipient's share in USD, which the earlier SDK and a trading terminal read", async () => {
    const c = chain();
    // Launches of earlier tests share this pool address (the chain is reset, the database is not).
    await db().deleteFrom("token_market").execute();
    await db().deleteFrom("tokens").execute();
    const l = await launch(c, [6_000, 4_000]);
    await storeLaunch(c, l);
    await payWethRewards(c, l.token, parseEther("1"));
    // The terminal's request: the checksummed pool address alone; it reads `data.userRewards` as a number of dollars.
    const usd = async () => {
      const res = await call(byPool, `/api/tokens/estimate-rewards-by-pool-address?poolAddress=${getAddress(l.pool)}`);
      expect(res.status, res.text).toBe(200);
      return res.body.userRewards;
    };
    // 60% of 1 WETH at the local feed's $3,000.
    expect(await usd()).toBeCloseTo(1_800, 9);
    await payTokenRewards(c, l, parseEther("5000"));
    expect(await usd()).toBeNull(); // 3,000 tokens and no stored price for them
    const { id } = await db()
      .selectFrom("tokens")
      .select("id")
      .where("contract_address", "=", l.token.toLowerCase())
      .executeTakeFirstOrThrow();
    await db()
      .insertInto("token_market")
      .values({ token_id: id, market_cap_usd: 2_000_000, price_usd: 0.00002 })
      .execute();
    expect(await usd()).toBeCloseTo(1_800.06, 9);
    await claimFees(c, l.recipients[0]!, c.contracts.weth);
    expect(await usd()).toBeCloseTo(0.06, 9);
  });

  it("follow each recipient's fee preference: both tokens, only the paired token, only the launched token", async () => {
    const c = chain();
    const l = await launch(c, [5_000, 3_000, 2_000], { feeIn: [FEE_IN.Both, FEE_IN.Paired, FEE_IN.Clanker] });
    // Indexed from its TokenCreated like any launch: the row names the fee-conversion locker and the v4 pool id.
    const indexed = await indexByAddress(8453, l.token);
    expect(indexed.status).toBe("indexed");
    const poolId = indexed.status === "indexed" ? indexed.token.pool_address! : "";
    await buy(c, l, parseEther("2"));
    // WETH fees: the launched-token recipient's 20% is swapped into the token in the pool.
    const wethForToken = await atPoolPrice(c, l, c.contracts.weth, parseEther("0.2"));
    await payWethRewards(c, l.token, parseEther("1"));
    // Token fees: the paired-token recipient's 30% is swapped into WETH in the pool.
    const tokenForWeth = await atPoolPrice(c, l, l.token, parseEther("1500"));
    await payTokenRewards(c, l, parseEther("5000"));
    expect(wethForToken).toBeGreaterThan(0n);
    expect(tokenForWeth).toBeGreaterThan(0n);

    const res = await estimateByPool(poolId);
    expect(res.status, res.text).toBe(200);
    const [both, paired, clanker] = l.recipients;
    expect(res.body).toEqual({
      tokenAddress: l.token,
      poolAddress: poolId,
      chainId: 8453,
      pairedTokenAddress: c.contracts.weth,
      recipients: [
        {
          recipient: both,
          admin: both,
          rewardBps: 5_000,
          tokenAmount: parseEther("2500").toString(),
          pairedAmount: parseEther("0.5").toString(),
        },
        {
          recipient: paired,
          admin: paired,
          rewardBps: 3_000,
          tokenAmount: "0",
          pairedAmount: (parseEther("0.3") + tokenForWeth).toString(),
        },
        {
          recipient: clanker,
          admin: clanker,
          rewardBps: 2_000,
          tokenAmount: (parseEther("1000") + wethForToken).toString(),
          pairedAmount: "0",
        },
      ],
      totals: {
        tokenAmount: (parseEther("3500") + wethForToken).toString(),
        pairedAmount: (parseEther("0.8") + tokenForWeth).toString(),
      },
      userRewards: null,
    });
  });

  it("adds up the shares of a recipient listed twice and reads its balance once", async () => {
    const c = chain();
    const twice = await launch(c, [2_500, 7_500], { recipients: [c.accounts[4]!, c.accounts[4]!] });
    await storeLaunch(c, twice);
    await payWethRewards(c, twice.token, parseEther("1"));
    const res = await estimateByToken(twice.token);
    expect(res.body.recipients).toEqual([
      {
        recipient: c.accounts[4],
        admin: c.accounts[4],
        rewardBps: 10_000,
        tokenAmount: "0",
        pairedAmount: parseEther("1").toString(),
      },
    ]);
    expect(res.body.totals.pairedAmount).toBe(parseEther("1").toString());
  });

  it("finds a token by its 32-byte v4 pool id", async () => {
    const c = chain();
    const l = await launch(c, [10_000]);
    const poolId = `0x${"ab".repeat(32)}`;
    await storeLaunch(c, l, { poolAddress: poolId });
    await payWethRewards(c, l.token, 1000n);
    const res = await estimateByPool(poolId.toUpperCase().replace("0X", "0x"));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ poolAddress: poolId, totals: { pairedAmount: "1000", tokenAmount: "0" } });
  });

  it("answers no recipients when the locker holds nothing for the token", async () => {
    const c = chain();
    await insertToken({
      address: addr(0xfee),
      msgSender: addr(1),
      poolAddress: addr(0xfee1),
      lockerAddress: c.contracts.locker,
    });
    const res = await estimateByPool(addr(0xfee1));
    expect(res.body).toMatchObject({ recipients: [], totals: { tokenAmount: "0", pairedAmount: "0" } });
    await insertToken({
      address: addr(0xfef),
      msgSender: addr(1),
      poolAddress: addr(0xfef1),
      lockerAddress: addr(0xeeee),
    });
    // Its earlier-SDK members: no position; the token and WETH in address order, the token (not on chain) unread.
    const none = await estimateByToken(addr(0xfef));
    expect(none.body.recipients).toEqual([]);
    expect(none.body).toMatchObject({
      lockerAddress: getAddress(addr(0xeeee)),
      lpNftId: 0,
      token0UncollectedRewards: "0",
      token1UncollectedRewards: "0",
      token0: { chainId: 8453, address: getAddress(addr(0xfef)), symbol: null, decimals: null, name: null },
      token1: { chainId: 8453, address: c.contracts.weth, symbol: "WETH", decimals: 18, name: "Wrapped Ether" },
    });
  });

  it("answers a token without a stored pool with a null poolAddress", async () => {
    const c = chain();
    await insertToken({
      address: addr(0xff0),
      msgSender: addr(1),
      poolAddress: null,
      lockerAddress: c.contracts.locker,
    });
    const res = await estimateByToken(addr(0xff0));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      tokenAddress: getAddress(addr(0xff0)),
      poolAddress: null,
      recipients: [],
      totals: { tokenAmount: "0", pairedAmount: "0" },
    });
  });

  it("answers 404 for an unknown pool or token, and 503 when the chain cannot be reached", async () => {
    expectError(await estimateByPool(addr(0x404)), 404, "not_found");
    expectError(await estimateByToken(addr(0x404)), 404, "not_found");
    await insertToken({ address: addr(0xa10), msgSender: addr(1), poolAddress: addr(0xa11), chainId: 10 });
    expectError(await estimateByPool(addr(0xa11), "&chainId=10"), 503, "provider_unavailable");
  });

  it.each([
    ["", ""],
    ["0x1234", ""],
    [`0x${"a".repeat(50)}`, ""],
    [addr(1), "&chainId=0"],
    [addr(1), "&chainId=x"],
  ])("rejects poolAddress=%s%s", async (pool, qs) => {
    expectError(await estimateByPool(pool, qs), 400, "invalid_request");
  });

  it.each([
    ["0x12", ""],
    [addr(1), "?chainId=-5"],
  ])("rejects address %s%s", async (token, qs) => {
    expectError(await estimateByToken(token, qs), 400, "invalid_request");
  });

  it("answers a preflight", () => {
    expect(OPTIONS().status).toBe(204);
  });
});
