// Chain names for people, from viem's chain list (viem/chains): the explorer's chain filter and rows.
import * as knownChains from "viem/chains";
import type { Chain } from "viem";
import { remember } from "@/lib/core/remember";

/** The local development chain (hardhat's id): viem names it "Hardhat", which says little on a page. */
const OWN_NAMES: Record<number, string> = { 31337: "Local chain" };

const byId = () =>
  remember("chain-names", () => {
    const names = new Map<number, { name: string; testnet: boolean }>();
    for (const chain of Object.values(knownChains) as Chain[]) {
      // The list holds a few chains under two names: the first wins, as viem's own lookups do.
      if (chain && typeof chain.id === "number" && !names.has(chain.id))
        names.set(chain.id, { name: chain.name, testnet: Boolean(chain.testnet) });
    }
    return names;
  });

/** The chain's name and whether it is a testnet; `Chain <id>` for an id viem does not list. */
export function chainName(chainId: number): { name: string; testnet: boolean } {
  const own = OWN_NAMES[chainId];
  if (own) return { name: own, testnet: true };
  return byId().get(chainId) ?? { name: `Chain ${chainId}`, testnet: false };
}
