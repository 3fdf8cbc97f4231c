// A token's reward split as its LP locker holds it (`tokenRewards(token)`): who can collect its fees.
//
// This read belongs in lib/platform/chain/reads.ts beside readAvailableFees (the chain layer owns every viem
// call); it lives here until the chain layer exposes it. The answer is the platform's v4 lockers'
// IClankerLpLocker.TokenRewardInfo, which the fee-conversion locker and the local chain's locker (installed at
// the platform's address) give alike.
import { zeroAddress, type Address } from "viem";
import { checksum } from "@/lib/core/evm";
import { chainSettings, getPublicClient, ChainRevertError, ChainUnavailableError } from "@/lib/platform/chain";
import { withChainErrors } from "@/lib/platform/chain/errors";
import { notFound, providerUnavailable } from "@/lib/core/errors";
import { log } from "@/lib/core/log";
import { tokenOnChain } from "@/lib/domains/tokens/service";

export const tokenRewardsAbi = [
  {
    type: "function",
    name: "tokenRewards",
    stateMutability: "view",
    inputs: [{ name: "token", type: "address" }],
    outputs: [
      {
        name: "",
        type: "tuple",
        components: [
          { name: "token", type: "address" },
          {
            name: "poolKey",
            type: "tuple",
            components: [
              { name: "currency0", type: "address" },
              { name: "currency1", type: "address" },
              { name: "fee", type: "uint24" },
              { name: "tickSpacing", type: "int24" },
              { name: "hooks", type: "address" },
            ],
          },
          { name: "positionId", type: "uint256" },
          { name: "numPositions", type: "uint256" },
          { name: "rewardBps", type: "uint16[]" },
          { name: "rewardAdmins", type: "address[]" },
          { name: "rewardRecipients", type: "address[]" },
        ],
      },
    ],
  },
] as const;

export type RewardShare = { recipient: Address; admin: Address; bps: number };

export type TokenRewards = {
  /** In the locker's order. */
  shares: RewardShare[];
  /** The locker's first LP position (its NFT id); 0 when the locker holds nothing for the token. */
  positionId: bigint;
  /** The pool's two currencies in the pool's order (currency0 < currency1); null when the locker holds nothing. */
  currencies: [Address, Address] | null;
};

/**
 * The token's reward split as its locker holds it: recipients with their admins and shares (bps), its LP position
 * and the pool's currencies; no shares when the locker holds nothing for the token or the address is not a locker.
 * An answer that cannot be decoded is a 503 (the locker is not what the configuration says), never a 500.
 */
export async function readTokenRewards(chainId: number, locker: Address, token: Address): Promise<TokenRewards> {
  const client = getPublicClient(chainId);
  const readInfo = () =>
    client.readContract({ address: locker, abi: tokenRewardsAbi, functionName: "tokenRewards", args: [token] });
  let info: Awaited<ReturnType<typeof readInfo>>;
  try {
    info = await withChainErrors(chainId, readInfo);
  } catch (error) {
    if (error instanceof ChainRevertError) return { shares: [], positionId: 0n, currencies: null };
    if (error instanceof ChainUnavailableError) throw error;
    log.warn("tokenRewards answer could not be read", { chainId, locker, error });
    throw providerUnavailable("the LP locker's answer could not be read", 60);
  }
  const shares = info.rewardRecipients.map((recipient, i) => ({
    recipient: checksum(recipient),
    admin: checksum(info.rewardAdmins[i] ?? recipient),
    bps: Number(info.rewardBps[i] ?? 0),
  }));
  const { currency0, currency1 } = info.poolKey;
  const held = currency0 !== zeroAddress || currency1 !== zeroAddress;
  return {
    shares,
    positionId: info.positionId,
    currencies: held ? [checksum(currency0), checksum(currency1)] : null,
  };
}

export type TokenKey = { by: "address" | "pool"; value: string; chainId: number };

/** The token whose rewards are asked about, by contract or pool address (v4 pool ids too), or 404. */
export async function findRewardToken(key: TokenKey) {
  const row = await tokenOnChain(key);
  if (!row)
    throw notFound(`no token with ${key.by === "address" ? "address" : "pool"} ${key.value} on chain ${key.chainId}`);
  return row;
}

/** The locker holding the token's reward split: the one it was deployed with, else the chain's. */
export function lockerOf(token: { locker_address: string | null }, chainId: number): Address {
  const locker = token.locker_address ?? chainSettings(chainId).contracts.locker;
  if (!locker) throw providerUnavailable(`no LP locker is configured for chain ${chainId}`, 60);
  return checksum(locker);
}
