// GET /api/metadata/chains: the chains the service serves (the default chain and every chain with an RPC, as
// GET /api/metadata/factories lists them), with their names from viem's chain list, and names for other ids asked.
import { z } from "zod";
import { chainName, configuredChainIds } from "@/lib/platform/chain";
import { DEFAULT_CHAIN_ID } from "@/lib/core/evm";
import { zList } from "@/lib/core/input";

export const MAX_NAMED_CHAINS = 50;

export const chainsQuery = z.object({
  ids: zList("\\d{1,10}", "chain ids", MAX_NAMED_CHAINS, Number)
    .optional()
    .describe(`comma-separated chain ids to name besides the served ones (at most ${MAX_NAMED_CHAINS})`),
});

const chainObject = z.object({
  chainId: z.number().int(),
  name: z.string().describe("the chain's name in viem's chain list, or `Chain <id>` for one it does not list"),
  testnet: z.boolean(),
  served: z.boolean().describe("the service indexes and deploys on this chain"),
});
export const chainsResponse = z.object({
  chains: z.array(chainObject).describe("the served chains, then the other asked ids, each in chain id order"),
});

export function listChains(query: { ids?: number[] }) {
  const served = [...new Set([DEFAULT_CHAIN_ID, ...configuredChainIds()])].sort((a, b) => a - b);
  const others = (query.ids ?? []).filter((id) => !served.includes(id)).sort((a, b) => a - b);
  return {
    chains: [
      ...served.map((chainId) => ({ chainId, ...chainName(chainId), served: true })),
      ...others.map((chainId) => ({ chainId, ...chainName(chainId), served: false })),
    ],
  };
}
