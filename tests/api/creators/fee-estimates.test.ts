import { describe, expect, it } from "vitest";
import { getAddress, parseEther } from "viem";
import { GET as byPool, OPTIONS } from "@/app/api/tokens/estimate-rewards-by-pool-address/route";
import { GET as byToken } from "@/app/api/get-estimated-uncollected-fees/[address]/route";
import { useTestChain } from "@/tests/helpers/chain";
import { call, expectError } from "@/tests/helpers/http";
import { claimFees, launch, payTokenRewards, payWethRewards, storeLaunch } from "./chain-fixtures";
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
    expect(res.body).toEqual(expected);
    const same = await estimateByToken(l.token.toLowerCase());
    expect(same.headers.get("deprecation")).toBe("true");
    expect(same.body).toEqual(expected);

    await claimFees(c, l.recipients[0]!, c.contracts.weth);
    const after = await estimateByToken(l.token, "?chainId=8453");
    expect(after.body.recipients[0]).toMatchObject({ pairedAmount: "0", tokenAmount: parseEther("3000").toString() });
    expect(after.body.totals.pairedAmount).toBe(parseEther("0.4").toString());
  });

  it("adds up the shares of a recipient listed twice and reads its balance once", async () => {
    const c = chain();
    const twice = await launch(c, [2_500, 7_500], [c.accounts[4]!, c.accounts[4]!]);
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
    expect((await estimateByToken(addr(0xfef))).body.recipients).toEqual([]);
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
