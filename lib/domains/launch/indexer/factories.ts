// The factories whose TokenCreated events are trusted and indexed on a chain: FACTORY_ADDRESS_<chainId>
// plus TOKEN_INDEX_EXTRA_FACTORIES. A TokenCreated from any other contract is never indexed. And the block
// indexing starts from on a chain.
import type { Address } from "viem";
import { chainSettings } from "@/lib/platform/chain";
import { config } from "@/lib/core/config";

export function indexedFactories(chainId: number): Address[] {
  const main = chainSettings(chainId).contracts.factory?.toLowerCase();
  const extra = config()
    .TOKEN_INDEX_EXTRA_FACTORIES.split(",")
    .map((entry) => entry.trim().split(":"))
    .filter(([chain, address]) => address && Number(chain) === chainId)
    .map(([, address]) => address!.toLowerCase());
  return [...new Set([main, ...extra].filter((a): a is string => Boolean(a)))] as Address[];
}

export function isIndexedFactory(chainId: number, address: string): boolean {
  return indexedFactories(chainId).includes(address.toLowerCase() as Address);
}

/**
 * The first block read on a chain without a checkpoint, and the floor of lookups by address:
 * TOKEN_INDEX_START_BLOCK_<chainId> (the factory's deployment block), else TOKEN_INDEX_START_BLOCK.
 */
export function tokenIndexStartBlock(chainId: number): number {
  return chainSettings(chainId).tokenIndexStartBlock ?? config().TOKEN_INDEX_START_BLOCK;
}
