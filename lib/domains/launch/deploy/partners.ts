// What the deploy mapping needs to know about the calling partner and the platform.
import type { Address } from "viem";
import { ChainUnavailableError, deployerAddress } from "@/lib/platform/chain";
import { config } from "@/lib/core/config";
import { findPartnerRewardAddress } from "@/lib/domains/partners/apikeys";

/** The partner's reward address (its interface share of legacy deployments), lowercase, or null. */
export async function partnerRewardAddress(partnerId: number): Promise<Address | null> {
  return (await findPartnerRewardAddress(partnerId)) as Address | null;
}

/** DEPLOY_PLATFORM_REWARD_ADDRESS, else the deployer account; lowercase. */
export function platformRewardAddress(chainId: number): Address {
  const address = config().DEPLOY_PLATFORM_REWARD_ADDRESS ?? deployerAddress(chainId)?.toLowerCase();
  if (!address) {
    throw new ChainUnavailableError(
      chainId,
      "not_configured",
      "no platform reward address (set DEPLOY_PLATFORM_REWARD_ADDRESS or DEPLOYER_PRIVATE_KEY)",
    );
  }
  return address as Address;
}
