// The factories whose TokenCreated events are trusted and indexed on a chain: FACTORY_ADDRESS_<chainId> and
// TOKEN_INDEX_EXTRA_FACTORIES (v4), then the chain's factories of earlier generations (LEGACY_FACTORIES_<chainId>, by
// default the platform's own) that TOKEN_INDEX_GENERATIONS selects. A TokenCreated from any other contract is never
// indexed. And the block indexing starts from on a chain, and for each factory.
import type { Address } from "viem";
import { chainSettings, legacyFactoryOf, type TokenGeneration } from "@/lib/platform/chain";
import { config } from "@/lib/core/config";

/** One indexed factory: its generation (the `type` of its tokens) and the first block its events are read from. */
export type IndexedFactory = { address: Address; type: TokenGeneration; startBlock: number };

function selectedGenerations(): Set<string> | "all" {
  const value = config().TOKEN_INDEX_GENERATIONS.trim();
  if (value === "all") return "all";
  return new Set(value === "none" ? [] : value.split(",").map((g) => g.trim()));
}

/** Every indexed factory of a chain, v4 first (FACTORY_ADDRESS_<chainId>, then the extra ones), once each. */
export function indexedFactoryList(chainId: number): IndexedFactory[] {
  const settings = chainSettings(chainId);
  const chainStart = tokenIndexStartBlock(chainId);
  const extra = config()
    .TOKEN_INDEX_EXTRA_FACTORIES.split(",")
    .map((entry) => entry.trim().split(":"))
    .filter(([chain, address]) => address && Number(chain) === chainId)
    .map(([, address]) => address!);
  const v4 = [settings.contracts.factory, ...extra]
    .filter((a): a is string => Boolean(a))
    .map(
      (a): IndexedFactory => ({
        address: a.toLowerCase() as Address,
        // An earlier generation's factory named as an extra one is still read as its generation (events.ts).
        type: legacyFactoryOf(chainId, a)?.type ?? "clanker_v4",
        startBlock: chainStart,
      }),
    );
  const selected = selectedGenerations();
  const legacy = settings.legacyFactories
    .filter((f) => selected === "all" || selected.has(f.type))
    .map(
      (f): IndexedFactory => ({
        address: f.factory.toLowerCase() as Address,
        type: f.type,
        // No event before the factory existed: its own start, never below the chain's.
        startBlock: Math.max(chainStart, f.startBlock ?? 0),
      }),
    );
  const seen = new Set<string>();
  return [...v4, ...legacy].filter((f) => !seen.has(f.address) && seen.add(f.address));
}

/** The indexed factories' addresses (lowercase), in indexedFactoryList's order. */
export function indexedFactories(chainId: number): Address[] {
  return indexedFactoryList(chainId).map((f) => f.address);
}

export function isIndexedFactory(chainId: number, address: string): boolean {
  return indexedFactories(chainId).includes(address.toLowerCase() as Address);
}

/**
 * The first block read on a chain without a checkpoint, and the floor of lookups by address:
 * TOKEN_INDEX_START_BLOCK_<chainId>, else TOKEN_INDEX_START_BLOCK. A factory of an earlier generation starts at its
 * own start block when that is later (indexedFactoryList).
 */
export function tokenIndexStartBlock(chainId: number): number {
  return chainSettings(chainId).tokenIndexStartBlock ?? config().TOKEN_INDEX_START_BLOCK;
}
