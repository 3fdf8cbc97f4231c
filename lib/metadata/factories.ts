// GET /api/metadata/factories: the token factory configured on each chain the service serves, with the
// event selectors an indexer filters logs by (computed from the factory ABI by the chain layer).
import { getAbiItem, toEventSelector } from "viem";
import { z } from "zod";
import { chainSettings, configuredChainIds, tokenFactoryAbi } from "../chain";
import { checksum } from "../http/params";
import { bytes32Hex, checksummedAddress } from "../http/answers";

export const DEFAULT_CHAIN_ID = 8453;
/** The deployment generation of the current factory: the `type` its tokens carry (COMPAT token object). */
export const FACTORY_NAME = "clanker_v4";

const TOKEN_CREATED_TOPIC = toEventSelector(getAbiItem({ abi: tokenFactoryAbi, name: "TokenCreated" }));

export const factoryMetadataObject = z.object({
  name: z.string().describe("deployment generation of the factory's tokens (their `type`), e.g. clanker_v4"),
  address: checksummedAddress.describe("the factory contract, EIP-55 checksummed"),
  chainId: z.number().int(),
  events: z.object({ tokenCreated: bytes32Hex.describe("topic0 of TokenCreated, lowercase 0x-hex") }),
});
export const factoriesResponse = z.array(factoryMetadataObject).describe("one entry per served chain that has a factory, in chain id order");
export type FactoryMetadata = z.infer<typeof factoryMetadataObject>;

/** The default chain always (its production factory address is built in), plus every chain with an RPC. */
export function listFactories(): FactoryMetadata[] {
  const chainIds = [...new Set([DEFAULT_CHAIN_ID, ...configuredChainIds()])].sort((a, b) => a - b);
  return chainIds.flatMap((chainId) => {
    const factory = chainSettings(chainId).contracts.factory;
    return factory ? [{ name: FACTORY_NAME, address: checksum(factory)!, chainId, events: { tokenCreated: TOKEN_CREATED_TOPIC } }] : [];
  });
}
