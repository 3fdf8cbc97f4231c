// The token object's `extensions`, as the platform's answers carry it and clients read it: the pool's fee hook, the
// fee type and values, and the reward split the token was deployed with. The hook comes from TokenCreated; the rest
// from the deploying call, when it is the factory's own deployToken(DeploymentConfig) (a call through another
// contract, a wallet's or a router's, is not decoded). Fee names follow the interface's naming note (`tokenFee`).
import { decodeAbiParameters, decodeFunctionData, getAddress, size, type Address, type Hex } from "viem";
import type { TokenCreatedEvent } from "@/lib/platform/chain";
import {
  dynamicFeeDataParams,
  poolInitializationDataParams,
  staticFeeDataParams,
  tokenFactoryAbi,
} from "@/lib/platform/chain/abis";

type StaticFees = { type: "static"; tokenFee: number; pairedFee: number };
type DynamicFees = { type: "dynamic"; baseFee: number; maxFee: number };

/** A reward recipient as deployed (its admin may have changed it since). */
type Recipient = { bps: number; admin: Address; recipient: Address };

export type TokenExtensions = {
  fees: { hook_address: Address; recipients?: Recipient[] } & (StaticFees | DynamicFees | Record<never, never>);
};

/** A fee hook's own data: two words are the static hooks' (tokenFee, pairedFee), seven the dynamic hooks'. */
function feesOf(feeData: Hex): StaticFees | DynamicFees | null {
  try {
    if (size(feeData) === 64) {
      const [tokenFee, pairedFee] = decodeAbiParameters(staticFeeDataParams, feeData);
      return { type: "static", tokenFee, pairedFee };
    }
    if (size(feeData) === 224) {
      const [baseFee, maxFee] = decodeAbiParameters(dynamicFeeDataParams, feeData);
      return { type: "dynamic", baseFee, maxFee };
    }
  } catch {
    // not a fee hook's data
  }
  return null;
}

/** poolData: the V2 hooks wrap the fee data with a pool extension; the first hooks take the fee data as it is. */
function poolFees(poolData: Hex): StaticFees | DynamicFees | null {
  try {
    const [wrapped] = decodeAbiParameters(poolInitializationDataParams, poolData);
    const fees = feesOf(wrapped.feeData);
    if (fees) return fees;
  } catch {
    // not wrapped
  }
  return feesOf(poolData);
}

/** The deploying call's configuration, when the call was the factory's deployToken. */
function deploymentOf(event: TokenCreatedEvent, call: { to: Address | null; input: Hex } | null) {
  if (!call?.to || call.to.toLowerCase() !== event.address.toLowerCase()) return null;
  try {
    const decoded = decodeFunctionData({ abi: tokenFactoryAbi, data: call.input });
    return decoded.functionName === "deployToken" ? decoded.args[0] : null;
  } catch {
    return null;
  }
}

/** `extensions` of a token from its TokenCreated and the call that deployed it (null: not read). */
export function tokenExtensions(
  event: TokenCreatedEvent,
  call: { to: Address | null; input: Hex } | null,
): TokenExtensions {
  const hook_address = getAddress(event.poolHook);
  const config = deploymentOf(event, call);
  if (!config) return { fees: { hook_address } };
  const { rewardAdmins, rewardRecipients, rewardBps } = config.lockerConfig;
  return {
    fees: {
      hook_address,
      ...poolFees(config.poolConfig.poolData),
      recipients: rewardRecipients.map((recipient, i) => ({
        bps: Number(rewardBps[i] ?? 0),
        admin: getAddress(rewardAdmins[i] ?? recipient),
        recipient: getAddress(recipient),
      })),
    },
  };
}
