// GET /api/metadata/factories: the trusted factories per served chain (configured and extra), and the
// TokenCreated selector checked against the event signature of COMPAT and a real log of the local factory.
import { afterEach, describe, expect, it } from "vitest";
import { keccak256, toHex, getAddress } from "viem";
import { GET } from "@/app/api/metadata/factories/route";
import { sendDeployToken, waitForReceipt } from "@/lib/platform/chain";
import { defaultDeploymentConfig, useTestChain } from "@/tests/helpers/chain";
import { resetConfig } from "@/lib/core/config";
import { call } from "@/tests/helpers/http";

const SIGNATURE =
  "TokenCreated(address,address,address,string,string,string,string,string,int24,address,bytes32,address,address,address,uint256,address[])";
const chain = useTestChain();

afterEach(() => {
  delete process.env.FACTORY_ADDRESS_84532;
  delete process.env.RPC_URL_84532;
  delete process.env.TOKEN_INDEX_EXTRA_FACTORIES;
  resetConfig();
});

describe("GET /api/metadata/factories", () => {
  it("lists the local factory with the TokenCreated topic0 of its ABI", async () => {
    const res = await call(GET, "/api/metadata/factories");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([
      {
        name: "clanker_v4",
        address: getAddress(chain().contracts.factory),
        chainId: 8453,
        events: { tokenCreated: keccak256(toHex(SIGNATURE)) },
      },
    ]);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("names the topic a deployment's log actually carries", async () => {
    const receipt = await waitForReceipt(8453, await sendDeployToken(8453, defaultDeploymentConfig(chain())));
    const topics = receipt.logs
      .filter((l) => l.address.toLowerCase() === chain().contracts.factory.toLowerCase())
      .map((l) => l.topics[0]);
    const [factory] = (await call(GET, "/api/metadata/factories")).body;
    expect(topics).toContain(factory.events.tokenCreated);
  });

  it("adds every chain with an RPC and a factory address, in chain id order", async () => {
    process.env.RPC_URL_84532 = "http://127.0.0.1:1";
    process.env.FACTORY_ADDRESS_84532 = "0x00000000000000000000000000000000000000f1";
    const body = (await call(GET, "/api/metadata/factories")).body;
    expect(body.map((f: { chainId: number }) => f.chainId)).toEqual([8453, 84532]);
    expect(body[1].address).toBe(getAddress("0x00000000000000000000000000000000000000f1"));
  });

  it("lists the extra factories the indexer trusts on served chains, after the configured one, once each", async () => {
    const extra = "0x00000000000000000000000000000000000000e1";
    process.env.RPC_URL_84532 = "http://127.0.0.1:1";
    process.env.FACTORY_ADDRESS_84532 = "0x00000000000000000000000000000000000000f1";
    // Chain 10 has no RPC (not served), and the configured factory named again is not listed twice.
    process.env.TOKEN_INDEX_EXTRA_FACTORIES = `8453:${extra}, 84532:${extra.toUpperCase().replace("0X", "0x")}, 10:${extra}, 8453:${chain().contracts.factory}`;
    resetConfig();
    const res = await call(GET, "/api/metadata/factories");
    expect(res.status, res.text).toBe(200);
    const topic = keccak256(toHex(SIGNATURE));
    expect(res.body).toEqual([
      {
        name: "clanker_v4",
        address: getAddress(chain().contracts.factory),
        chainId: 8453,
        events: { tokenCreated: topic },
      },
      { name: "clanker_v4", address: getAddress(extra), chainId: 8453, events: { tokenCreated: topic } },
      {
        name: "clanker_v4",
        address: getAddress("0x00000000000000000000000000000000000000f1"),
        chainId: 84532,
        events: { tokenCreated: topic },
      },
      { name: "clanker_v4", address: getAddress(extra), chainId: 84532, events: { tokenCreated: topic } },
    ]);
  });
});
