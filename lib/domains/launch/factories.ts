// GET /api/metadata/factories: every token factory the service trusts on each chain it serves, as the indexer reads
// them (indexer/factories.ts: the v4 factories, then those of earlier generations), each with its generation and the
// topic0 of its own TokenCreated (computed from the generation's ABI by the chain layer).
import { z } from "zod";
import { configuredChainIds, tokenCreatedTopicOf } from "@/lib/platform/chain";
import { checksum, DEFAULT_CHAIN_ID } from "@/lib/core/evm";
import { bytes32Hex, checksummedAddress } from "@/lib/core/answers";
import { indexedFactoryList } from "./indexer/factories";

export const factoryMetadataObject = z.object({
  name: z
    .string()
    .describe("deployment generation of the factory's tokens (their `type`): proxy, clanker, clanker_v2 … clanker_v4"),
  address: checksummedAddress.describe("the factory contract, EIP-55 checksummed"),
  chainId: z.number().int(),
  events: z.object({
    tokenCreated: bytes32Hex.describe("topic0 of the factory's own TokenCreated (its generation's), lowercase 0x-hex"),
  }),
});
export const factoriesResponse = z
  .array(factoryMetadataObject)
  .describe(
    "one entry per trusted factory of each served chain, in chain id order: FACTORY_ADDRESS_<chainId> first, then the extra v4 factories, then earlier generations oldest first",
  );
export type FactoryMetadata = z.infer<typeof factoryMetadataObject>;

/** The default chain always (its production factory address is built in), plus every chain with an RPC. */
export function listFactories(): FactoryMetadata[] {
  const chainIds = [...new Set([DEFAULT_CHAIN_ID, ...configuredChainIds()])].sort((a, b) => a - b);
  return chainIds.flatMap((chainId) =>
    indexedFactoryList(chainId).map((factory) => ({
      name: factory.type,
      address: checksum(factory.address)!,
      chainId,
      events: { tokenCreated: tokenCreatedTopicOf(chainId, factory.address) },
    })),
  );
}
