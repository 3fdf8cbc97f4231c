// The factories whose TokenCreated events are trusted and indexed on a chain: FACTORY_ADDRESS_<chainId>
// plus TOKEN_INDEX_EXTRA_FACTORIES. A TokenCreated from any other contract is never indexed.
import type { Address } from "viem";
import { chainSettings } from "../chain";
import { config } from "../config";

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
