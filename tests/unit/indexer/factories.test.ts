// Where the TokenCreated indexer starts each factory of a chain: v4's at the chain's start block, a legacy factory at
// its own deployment block when that is later (Base's v3.1), and every factory a LEGACY_FACTORIES_<chainId> names (a
// local chain standing in for Base) at the chain's start.
import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/core/config";
import { indexedFactoryList } from "@/lib/domains/launch/indexer/factories";
import { BASE_LEGACY_START_BLOCK, PRODUCTION_LEGACY_FACTORIES } from "@/lib/platform/chain/generations";
import { PRODUCTION_DEFAULTS } from "@/lib/platform/chain/settings";

const NAMES = ["TOKEN_INDEX_START_BLOCK_8453", "LEGACY_FACTORIES_8453", "TOKEN_INDEX_GENERATIONS"];
const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));

function withEnv(vars: Record<string, string | undefined>) {
  for (const name of NAMES) {
    const value = name in vars ? vars[name] : saved[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
}

afterEach(() => withEnv({}));

const V3_1 = PRODUCTION_LEGACY_FACTORIES[8453]!.find((f) => f.type === "clanker_v3_1")!;
/** Each indexed factory of Base as `type@startBlock`, v4 first. */
const starts = () => indexedFactoryList(8453).map((f) => `${f.type}@${f.startBlock}`);

describe("indexedFactoryList's start blocks on Base", () => {
  it("start v4 and v0 to v3 at the chain's start block, and v3.1 at its deployment block", () => {
    withEnv({ TOKEN_INDEX_START_BLOCK_8453: String(BASE_LEGACY_START_BLOCK), TOKEN_INDEX_GENERATIONS: "all" });
    const s = BASE_LEGACY_START_BLOCK;
    expect(indexedFactoryList(8453)[0]!.address).toBe(PRODUCTION_DEFAULTS[8453]!.factory!.toLowerCase());
    expect(starts()).toEqual([
      `clanker_v4@${s}`,
      `proxy@${s}`,
      `clanker@${s}`,
      `clanker_v2@${s}`,
      `clanker_v3@${s}`,
      `clanker_v3_1@${V3_1.startBlock}`,
    ]);
  });

  it("never start a factory before the chain's start block", () => {
    const later = V3_1.startBlock! + 1_000;
    withEnv({ TOKEN_INDEX_START_BLOCK_8453: String(later), TOKEN_INDEX_GENERATIONS: "all" });
    expect(new Set(indexedFactoryList(8453).map((f) => f.startBlock))).toEqual(new Set([later]));
  });

  it("start the factories LEGACY_FACTORIES_8453 names at the chain's start, as a local chain needs", () => {
    withEnv({
      TOKEN_INDEX_START_BLOCK_8453: "0",
      TOKEN_INDEX_GENERATIONS: "all",
      LEGACY_FACTORIES_8453: `proxy:${PRODUCTION_LEGACY_FACTORIES[8453]![0]!.factory},clanker_v3_1:${V3_1.factory}`,
    });
    expect(starts()).toEqual(["clanker_v4@0", "proxy@0", "clanker_v3_1@0"]);
  });
});
