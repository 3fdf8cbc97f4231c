// Chain facts the pages render on the server: the chain's name and its block explorer, from viem's chain
// definitions (`blockExplorers.default`), so the client bundles carry no chain list.
import type { Chain } from "viem";
import * as knownChains from "viem/chains";
import { remember } from "@/lib/core/remember";
import { chainName } from "@/lib/platform/chain/names";

export type BlockExplorer = { name: string; url: string };

const explorers = () =>
  remember("block-explorers", () => {
    const byId = new Map<number, BlockExplorer>();
    for (const chain of Object.values(knownChains) as Chain[]) {
      const explorer = chain?.blockExplorers?.default;
      // The list holds a few chains under two names: the first wins, as viem's own lookups do.
      if (explorer && typeof chain.id === "number" && !byId.has(chain.id) && /^https:\/\//.test(explorer.url))
        byId.set(chain.id, { name: explorer.name, url: explorer.url.replace(/\/+$/, "") });
    }
    return byId;
  });

/** The chain's block explorer (its name and base URL), or null when viem lists none (the local chain). */
export const blockExplorerOf = (chainId: number): BlockExplorer | null => explorers().get(chainId) ?? null;

export const chainNameOf = (chainId: number): string => chainName(chainId).name;
