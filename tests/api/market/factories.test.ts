// GET /api/metadata/factories: the trusted factories per served chain (configured, extra, then the earlier
// generations'), and each TokenCreated selector checked against its event signature and a real log of the local factory.
import { afterEach, describe, expect, it } from "vitest";
import { keccak256, toHex, getAddress } from "viem";
import { GET } from "@/app/api/metadata/factories/route";
import { PRODUCTION_LEGACY_FACTORIES, sendDeployToken, waitForReceipt } from "@/lib/platform/chain";
import { defaultDeploymentConfig, useTestChain } from "@/tests/helpers/chain";
import { resetConfig } from "@/lib/core/config";
import { call } from "@/tests/helpers/http";

const SIGNATURE =
  "TokenCreated(address,address,address,string,string,string,string,string,int24,address,bytes32,address,address,address,uint256,address[])";
const chain = useTestChain();
/** topic0 of each earlier generation's TokenCreated, from its signature (v1 and v2 share types, so one topic). */
const LEGACY_SIGNATURES = {
  proxy: "TokenCreated(address,uint256,address,string,string,uint256,uint256,address)",
  clanker: "TokenCreated(address,uint256,address,uint256,string,string,uint256,address,string)",
  clanker_v2: "TokenCreated(address,uint256,address,uint256,string,string,uint256,address,string)",
  clanker_v3: "TokenCreated(address,uint256,address,uint256,string,string,uint256,string)",
  clanker_v3_1:
    "TokenCreated(address,address,address,address,address,uint256,string,string,int24,string,uint256,uint256,uint8,address)",
} as const;
/** The local chain stands in for Base: the platform's earlier factories are listed after the v4 ones. */
const legacyEntries = (chainId: number) =>
  PRODUCTION_LEGACY_FACTORIES[8453]!.map((f) => ({
    name: f.type,
    address: f.factory,
    chainId,
    events: { tokenCreated: keccak256(toHex(LEGACY_SIGNATURES[f.type])) },
  }));

afterEach(() => {
  delete process.env.FACTORY_ADDRESS_84532;
  delete process.env.RPC_URL_84532;
  delete process.env.TOKEN_INDEX_EXTRA_FACTORIES;
  delete process.env.TOKEN_INDEX_GENERATIONS;
  delete process.env.LEGACY_FACTORIES_84532;
  resetConfig();
});

describe("GET /api/metadata/factories", () => {
  it("lists the local factory, then every earlier generation's, each with the topic0 of its own TokenCreated", async () => {
    const res = await call(GET, "/api/metadata/factories");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([
      {
        name: "clanker_v4",
        address: getAddress(chain().contracts.factory),
        chainId: 8453,
        events: { tokenCreated: keccak256(toHex(SIGNATURE)) },
      },
      ...legacyEntries(8453),
    ]);
    expect(res.body.map((f: { name: string }) => f.name)).toEqual([
      "clanker_v4",
      "proxy",
      "clanker",
      "clanker_v2",
      "clanker_v3",
      "clanker_v3_1",
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
    expect(body.map((f: { chainId: number }) => f.chainId)).toEqual([8453, 8453, 8453, 8453, 8453, 8453, 84532]);
    expect(body[6].address).toBe(getAddress("0x00000000000000000000000000000000000000f1"));
  });

  it("lists only the generations TOKEN_INDEX_GENERATIONS selects, and a chain's own LEGACY_FACTORIES_<chainId>", async () => {
    process.env.TOKEN_INDEX_GENERATIONS = "clanker_v3_1, proxy";
    process.env.RPC_URL_84532 = "http://127.0.0.1:1";
    process.env.LEGACY_FACTORIES_84532 = "clanker_v3:0x00000000000000000000000000000000000000a3";
    resetConfig();
    let body = (await call(GET, "/api/metadata/factories")).body;
    expect(body.map((f: { name: string; chainId: number }) => `${f.chainId}:${f.name}`)).toEqual([
      "8453:clanker_v4",
      "8453:proxy",
      "8453:clanker_v3_1",
      "84532:clanker_v4",
    ]);
    process.env.TOKEN_INDEX_GENERATIONS = "all";
    resetConfig();
    body = (await call(GET, "/api/metadata/factories")).body;
    expect(body.at(-1)).toEqual({
      name: "clanker_v3",
      address: getAddress("0x00000000000000000000000000000000000000a3"),
      chainId: 84532,
      events: { tokenCreated: keccak256(toHex(LEGACY_SIGNATURES.clanker_v3)) },
    });
    process.env.TOKEN_INDEX_GENERATIONS = "none";
    resetConfig();
    body = (await call(GET, "/api/metadata/factories")).body;
    expect(body.map((f: { name: string }) => f.name)).toEqual(["clanker_v4", "clanker_v4"]);
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
      ...legacyEntries(8453),
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
