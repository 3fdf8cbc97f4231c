// GET /api/metadata/factories: the token factory configured on each chain the service serves, with the
// event selectors an indexer filters logs by (computed from the factory ABI by the chain layer).
import { getAbiItem, toEventSelector } from "viem";
import { chainSettings, configuredChainIds, tokenFactoryAbi } from "../chain";
import { checksum } from "../http/params";

export const DEFAULT_CHAIN_ID = 8453;
/** The deployment generation of the current factory: the `type` its tokens carry (COMPAT token object). */
export const FACTORY_NAME = "clanker_v4";

const TOKEN_CREATED_TOPIC = toEventSelector(getAbiItem({ abi: tokenFactoryAbi, name: "TokenCreated" }));

export type FactoryMetadata = { name: string; address: string; chainId: number; events: { tokenCreated: `0x${string}` } };

/** The default chain always (its production factory address is built in), plus every chain with an RPC. */
export function listFactories(): FactoryMetadata[] {
  const chainIds = [...new Set([DEFAULT_CHAIN_ID, ...configuredChainIds()])].sort((a, b) => a - b);
  return chainIds.flatMap((chainId) => {
    const factory = chainSettings(chainId).contracts.factory;
    return factory ? [{ name: FACTORY_NAME, address: checksum(factory)!, chainId, events: { tokenCreated: TOKEN_CREATED_TOPIC } }] : [];
  });
}
