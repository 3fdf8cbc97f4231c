// The reads that ask the chain about a token work on the demo data: seeded tokens of the current generation name
// the platform's Base locker, where the local chain puts its contracts, so creator-earnings and the fee estimate
// answer (a token the locker knows nothing of has no recipients) instead of 503.
import { describe, expect, it } from "vitest";
import { db } from "@/db";
import { seedDatabase } from "@/dev/seed";
import { PRODUCTION_DEFAULTS } from "@/lib/platform/chain/settings";
import { GET as earningsGET } from "@/app/api/creator-earnings/[tokenAddress]/route";
import { GET as feesGET } from "@/app/api/get-estimated-uncollected-fees/[address]/route";
import { useTestChain } from "@/tests/helpers/chain";
import { call } from "@/tests/helpers/http";

useTestChain();

describe("seeded tokens on the local chain", () => {
  it("answer creator-earnings and the fee estimate", async () => {
    await seedDatabase({ tokens: 300, seed: "reads" });
    const token = await db()
      .selectFrom("tokens")
      .select(["contract_address", "locker_address"])
      .where("type", "=", "clanker_v4")
      .where("chain_id", "=", 8453)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(token.locker_address).toBe(PRODUCTION_DEFAULTS[8453].locker!.toLowerCase());

    const earnings = await call(earningsGET, `/api/creator-earnings/${token.contract_address}`, {
      params: { tokenAddress: token.contract_address },
    });
    expect(earnings.status, earnings.text).toBe(200);
    expect(earnings.body).toMatchObject({ chainId: 8453, totalWethClaimed: "0.0", claimCount: 0 });

    const fees = await call(feesGET, `/api/get-estimated-uncollected-fees/${token.contract_address}`, {
      params: { address: token.contract_address },
    });
    expect(fees.status, fees.text).toBe(200);
  });
});
