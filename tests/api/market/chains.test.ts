// GET /api/metadata/chains: the served chains, named from viem's chain list, and names for other ids asked.
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/metadata/chains/route";
import { call, expectError } from "@/tests/helpers/http";

describe("GET /api/metadata/chains", () => {
  it("lists the default chain and every chain with an RPC, by name", async () => {
    process.env.RPC_URL_84532 = "http://127.0.0.1:1";
    try {
      const res = await call(GET, "/api/metadata/chains?ids=1,42161,8453,4999999999");
      expect(res.status, res.text).toBe(200);
      const served = res.body.chains.filter((c: any) => c.served);
      expect(served.map((c: any) => [c.chainId, c.name])).toEqual(
        expect.arrayContaining([
          [8453, "Base"],
          [84532, "Base Sepolia"],
        ]),
      );
      const others = res.body.chains.filter((c: any) => !c.served);
      expect(others.map((c: any) => [c.chainId, c.name])).toEqual([
        [1, "Ethereum"],
        [42161, "Arbitrum One"],
        [4999999999, "Chain 4999999999"],
      ]);
    } finally {
      delete process.env.RPC_URL_84532;
    }
  });

  it("refuses a malformed id list", async () => {
    expectError(await call(GET, "/api/metadata/chains?ids=base"), 400, "invalid_request");
  });
});
