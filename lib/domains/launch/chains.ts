// GET /api/metadata/chains: the chains the service serves (the default chain and every chain with an RPC, as
// GET /api/metadata/factories lists them), with their names from viem's chain list, and names for other ids asked.
import { z } from "zod";
import { chainName, configuredChainIds } from "@/lib/platform/chain";
import { DEFAULT_CHAIN_ID } from "@/lib/core/evm";

export const MAX_NAMED_CHAINS = 50;

export const chainsQuery = z.object({
  ids: z
    .string()
    .trim()
    .regex(/^\d{1,10}(,\d{1,10})*$/, "must be comma-separated chain ids")
    .transform((v) => [...new Set(v.split(",").map(Number))])
    .refine((list) => list.length <= MAX_NAMED_CHAINS, `at most ${MAX_NAMED_CHAINS} chain ids`)
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
