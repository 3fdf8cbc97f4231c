// GET /api/metadata/factories: every token factory the service trusts on each chain it serves
// (FACTORY_ADDRESS_<chainId> and TOKEN_INDEX_EXTRA_FACTORIES, as the indexer reads them), with the event
// selectors an indexer filters logs by (computed from the factory ABI by the chain layer).
import { getAbiItem, toEventSelector } from "viem";
import { z } from "zod";
import { configuredChainIds, tokenFactoryAbi } from "@/lib/platform/chain";
import { checksum, DEFAULT_CHAIN_ID } from "@/lib/core/evm";
import { bytes32Hex, checksummedAddress } from "@/lib/core/answers";
import { indexedFactories } from "./indexer/factories";

/**
 * The deployment generation of the trusted factories: the `type` the indexer gives every token they create
 * (COMPAT token object). Extra factories emit the same TokenCreated and their tokens carry the same type.
 */
export const FACTORY_NAME = "clanker_v4";

const TOKEN_CREATED_TOPIC = toEventSelector(getAbiItem({ abi: tokenFactoryAbi, name: "TokenCreated" }));

export const factoryMetadataObject = z.object({
  name: z.string().describe("deployment generation of the factory's tokens (their `type`), e.g. clanker_v4"),
  address: checksummedAddress.describe("the factory contract, EIP-55 checksummed"),
  chainId: z.number().int(),
  events: z.object({ tokenCreated: bytes32Hex.describe("topic0 of TokenCreated, lowercase 0x-hex") }),
});
export const factoriesResponse = z
  .array(factoryMetadataObject)
  .describe("one entry per trusted factory of each served chain, in chain id order, FACTORY_ADDRESS_<chainId> first");
export type FactoryMetadata = z.infer<typeof factoryMetadataObject>;

/** The default chain always (its production factory address is built in), plus every chain with an RPC. */
export function listFactories(): FactoryMetadata[] {
  const chainIds = [...new Set([DEFAULT_CHAIN_ID, ...configuredChainIds()])].sort((a, b) => a - b);
  return chainIds.flatMap((chainId) =>
    indexedFactories(chainId).map((factory) => ({
      name: FACTORY_NAME,
      address: checksum(factory)!,
      chainId,
      events: { tokenCreated: TOKEN_CREATED_TOPIC },
    })),
  );
}
