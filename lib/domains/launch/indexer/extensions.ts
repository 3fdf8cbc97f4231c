// The token object's `extensions`, as the platform's answers carry it and clients read it: the pool's fee hook, the
// fee type and values, and the reward split the token was deployed with. The hook comes from TokenCreated; the rest
// from the deployment's configuration: the one this service sent, or the deploying call when it is the factory's own
// deployToken(DeploymentConfig) (a call through another contract, a wallet's or a router's, is not decoded). Fee
// names follow the interface's naming note (`tokenFee` for the platform's `clankerFee`).
import { getAbiItem, size, type Address, type Hex } from "viem";
import { checksum } from "@/lib/core/evm";
import {
  chainSettings,
  type DeploymentConfig,
  type TokenCreatedEvent,
  type V4TokenCreatedEvent,
} from "@/lib/platform/chain";
import { callDecoder, decodeHexParameters } from "@/lib/platform/chain/abi-decode";
import {
  dynamicFeeDataParams,
  poolInitializationDataParams,
  staticFeeDataParams,
  tokenFactoryAbi,
} from "@/lib/platform/chain/abis";

type StaticFees = { type: "static"; tokenFee: number; pairedFee: number };
type DynamicFees = { type: "dynamic"; baseFee: number; maxFee: number };
type Fees = StaticFees | DynamicFees;

/** A reward recipient as deployed (its admin may have changed it since). */
type Recipient = { bps: number; admin: Address; recipient: Address };

export type TokenExtensions = {
  fees: { hook_address: Address; recipients?: Recipient[] } & (Fees | Record<never, never>);
};

function decodeFees(type: Fees["type"], feeData: Hex): Fees | null {
  try {
    if (type === "static") {
      const [tokenFee, pairedFee] = decodeHexParameters(staticFeeDataParams, feeData);
      return { type, tokenFee, pairedFee };
    }
    const [baseFee, maxFee] = decodeHexParameters(dynamicFeeDataParams, feeData);
    return { type, baseFee, maxFee };
  } catch {
    return null;
  }
}

/** The V2 hooks' poolData: the fee data inside abi.encode(PoolInitializationData); null when not one. */
function unwrapped(poolData: Hex): Hex | null {
  try {
    return decodeHexParameters(poolInitializationDataParams, poolData)[0].feeData;
  } catch {
    return null;
  }
}

/**
 * The fees of a pool's data. The chain's configured fee hooks (STATIC_FEE_HOOK_ADDRESS_<id>, DYNAMIC_…) are V2 hooks
 * of a known type; for another hook the data says it: wrapped or bare, two words (static) or seven (dynamic).
 */
function poolFees(chainId: number, hook: Address, poolData: Hex): Fees | null {
  const { staticFeeHook, dynamicFeeHook } = chainSettings(chainId).contracts;
  const is = (configured: Address | undefined) => configured?.toLowerCase() === hook.toLowerCase();
  if (is(staticFeeHook) || is(dynamicFeeHook)) {
    const feeData = unwrapped(poolData);
    return feeData ? decodeFees(is(staticFeeHook) ? "static" : "dynamic", feeData) : null;
  }
  const feeData = unwrapped(poolData) ?? poolData;
  if (size(feeData) === 64) return decodeFees("static", feeData);
  if (size(feeData) === 224) return decodeFees("dynamic", feeData);
  return null;
}

const decodeDeployToken = callDecoder(getAbiItem({ abi: tokenFactoryAbi, name: "deployToken" }));

/** The configuration of a deploying call (its addresses lowercase), when the call was the factory's own deployToken. */
export function deploymentOf(
  event: TokenCreatedEvent,
  call: { to: Address | null; input: Hex } | null,
): DeploymentConfig | null {
  if (!call?.to || call.to.toLowerCase() !== event.address.toLowerCase()) return null;
  try {
    return decodeDeployToken(call.input)?.[0] ?? null;
  } catch {
    return null;
  }
}

/** Whether a configuration is the one that emitted `event` (a call may deploy more than its own token). */
function describes(config: DeploymentConfig, event: V4TokenCreatedEvent): boolean {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  return (
    same(config.tokenConfig.tokenAdmin, event.tokenAdmin) &&
    config.tokenConfig.name === event.tokenName &&
    config.tokenConfig.symbol === event.tokenSymbol &&
    same(config.poolConfig.hook, event.poolHook) &&
    same(config.poolConfig.pairedToken, event.pairedToken) &&
    same(config.lockerConfig.locker, event.locker)
  );
}

/** `extensions` of a token from its TokenCreated and the configuration it was deployed with (null: unknown). */
export function tokenExtensions(
  chainId: number,
  event: V4TokenCreatedEvent,
  deployment: DeploymentConfig | null,
): TokenExtensions {
  const hook_address = checksum(event.poolHook);
  if (!deployment || !describes(deployment, event)) return { fees: { hook_address } };
  const { rewardAdmins, rewardRecipients, rewardBps } = deployment.lockerConfig;
  return {
    fees: {
      hook_address,
      ...poolFees(chainId, hook_address, deployment.poolConfig.poolData),
      recipients: rewardRecipients.map((recipient, i) => ({
        bps: Number(rewardBps[i]),
        admin: checksum(rewardAdmins[i]!),
        recipient: checksum(recipient),
      })),
    },
  };
}
