// The committed artifacts are what the sources compile to, and the hand-written platform ABIs are
// exactly what the local contracts implement.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ARTIFACTS_DIR, compileContracts, renderArtifacts } from "@/dev/chain/compile";
import { formatAbiItem } from "viem/utils";
import {
  chainlinkFeedAbi,
  deployErrorsAbi,
  erc20ReadAbi,
  feeLockerAbi,
  tokenDataAbi,
  tokenFactoryAbi,
  v3PoolAbi,
} from "@/lib/platform/chain/abis";
import { presaleEventsAbi } from "@/lib/platform/chain/abi-presale";
import * as artifacts from "@/dev/chain/artifacts";

type Item = { type: string; name?: string };

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

function expectImplements(handWritten: readonly Item[], compiled: readonly Item[]) {
  for (const item of handWritten) {
    const match = compiled.find((c) => c.type === item.type && c.name === item.name);
    expect(match, `${item.type} ${item.name}`).toBeDefined();
    expect(sortKeys(match)).toEqual(sortKeys(item));
  }
}

describe("contract artifacts", () => {
  it("recompiling the sources reproduces the committed artifacts byte for byte", () => {
    const files = renderArtifacts(compileContracts());
    const stale = Object.entries(files)
      .filter(
        ([name, content]) =>
          !existsSync(path.join(ARTIFACTS_DIR, name)) ||
          readFileSync(path.join(ARTIFACTS_DIR, name), "utf8") !== content,
      )
      .map(([name]) => name);
    // Listed by name only (the contents are bytecode); fix with: npx tsx dev/cli/compile-contracts.ts
    expect(stale).toEqual([]);
  }, 120_000);

  it("the platform ABIs the service uses match the local contracts", () => {
    expectImplements(tokenFactoryAbi, artifacts.factoryAbi);
    expectImplements(v3PoolAbi, artifacts.poolAbi);
    expectImplements(feeLockerAbi, artifacts.feeLockerAbi);
    expectImplements(erc20ReadAbi, artifacts.tokenAbi);
    expectImplements(tokenDataAbi, artifacts.tokenAbi);
    expectImplements(chainlinkFeedAbi, artifacts.mockAggregatorV3Abi);
    expectImplements(presaleEventsAbi, artifacts.presaleAbi);
  });

  it("the deploy path's errors are every error the local deploy-path contracts can raise", () => {
    const deployPath = [
      artifacts.factoryAbi,
      artifacts.staticFeeHookV2Abi,
      artifacts.dynamicFeeHookV2Abi,
      artifacts.sniperAuctionV2Abi,
      artifacts.tokenVaultAbi,
      artifacts.tokenAirdropAbi,
      artifacts.presaleAbi,
      artifacts.lpLockerFeeConversionAbi,
      artifacts.feeLockerAbi,
      artifacts.tokenAbi,
    ];
    const signatures = (abi: readonly { type: string }[]) =>
      abi.filter((item) => item.type === "error").map((item) => formatAbiItem(item as never));
    expect(new Set(signatures(deployErrorsAbi))).toEqual(new Set(deployPath.flatMap(signatures)));
  });

  it("the local contracts fit in a block (under the 24,576-byte code size limit)", () => {
    for (const [name, value] of Object.entries(artifacts)) {
      if (name.endsWith("DeployedBytecode")) expect((value as string).length / 2 - 1, name).toBeLessThanOrEqual(24_576);
    }
  });
});
