// Answer shapes of the presale endpoints (interface 4.4, COMPAT), for the OpenAPI document and the API tests.
import { z } from "zod";
import { PRESALE_STATUS } from "@/lib/platform/chain";
import { bytes32Hex, checksummedAddress, ethAmount, weiAmount } from "@/lib/core/answers";
import { leafCount, merkleProof, merkleRoot, nextCursor, treeUploadResponse } from "@/lib/domains/merkle/responses";
import { MAX_ALLOCATIONS_PAGE, MAX_PRESALES_PAGE } from "./schemas";

const isoTime = z.iso.datetime().describe("ISO 8601, UTC");
const seconds = z.number().int().nonnegative().describe("seconds");
const hexBytes = z
  .string()
  .regex(/^0x([0-9a-f]{2})*$/)
  .meta({ description: "ABI bytes, lowercase 0x-hex", examples: ["0x"] });
const uint256Text = z
  .string()
  .regex(/^\d{1,78}$/)
  .describe("uint256, decimal string");
const int = z.number().int();

/** A default WETH-paired deployment with the presale as its one extension (10%), for the document. */
function exampleDeploymentConfig() {
  const [admin, hook, locker, mevModule, presale] = ["1", "2", "3", "4", "5"].map((digit) => `0x${digit.repeat(40)}`);
  return {
    tokenConfig: {
      tokenAdmin: admin,
      name: "Example Token",
      symbol: "EXT",
      salt: `0x${"0".repeat(64)}`,
      image: "https://example.com/token.png",
      metadata: '{"description":"An example token"}',
      context: '{"interface":"example"}',
      originatingChainId: "8453",
    },
    poolConfig: {
      hook,
      pairedToken: "0x4200000000000000000000000000000000000006",
      tickIfToken0IsClanker: -230400,
      tickSpacing: 200,
      poolData: "0x",
    },
    lockerConfig: {
      locker,
      rewardAdmins: [admin],
      rewardRecipients: [admin],
      rewardBps: [10000],
      tickLower: [-230400],
      tickUpper: [-120000],
      positionBps: [10000],
      lockerData: "0x",
    },
    mevModuleConfig: { mevModule, mevModuleData: "0x" },
    extensionConfigs: [{ extension: presale, msgValue: "0", extensionBps: 1000, extensionData: "0x" }],
  };
}

/** The DeploymentConfig of PresaleStarted as decoded from the event (uint256 members as decimal strings). */
export const presaleDeploymentConfig = z
  .object({
    tokenConfig: z.object({
      tokenAdmin: checksummedAddress,
      name: z.string(),
      symbol: z.string(),
      salt: bytes32Hex,
      image: z.string(),
      metadata: z.string().describe("JSON text"),
      context: z.string().describe("JSON text"),
      originatingChainId: uint256Text,
    }),
    poolConfig: z.object({
      hook: checksummedAddress,
      pairedToken: checksummedAddress,
      tickIfToken0IsClanker: int,
      tickSpacing: int,
      poolData: hexBytes,
    }),
    lockerConfig: z.object({
      locker: checksummedAddress,
      rewardAdmins: z.array(checksummedAddress),
      rewardRecipients: z.array(checksummedAddress),
      rewardBps: z.array(int),
      tickLower: z.array(int),
      tickUpper: z.array(int),
      positionBps: z.array(int),
      lockerData: hexBytes,
    }),
    mevModuleConfig: z.object({ mevModule: checksummedAddress, mevModuleData: hexBytes }),
    extensionConfigs: z.array(
      z.object({ extension: checksummedAddress, msgValue: weiAmount, extensionBps: int, extensionData: hexBytes }),
    ),
  })
  .meta({
    id: "DeploymentConfig",
    description: "the token deployment the presale ends in (the factory's DeploymentConfig, docs/compat.md)",
    examples: [exampleDeploymentConfig()],
  });

const statusNames = Object.fromEntries([...Object.keys(PRESALE_STATUS), "Unknown"].map((name) => [name, name]));

/** A presale row as GET /api/presales answers it (lib/domains/presales/serialize.ts); null until the event that sets it is indexed. */
export const presaleObject = z
  .object({
    id: int.describe("row id"),
    presale_id: int.describe("the presale contract's id"),
    chain_id: int,
    presale_address: checksummedAddress.describe("the presale contract, EIP-55 checksummed"),
    status: int.min(0).max(255).describe("the contract's PresaleStatus"),
    status_name: z.enum(statusNames).describe("name of `status`; Unknown for a value the service does not know"),
    owner: checksummedAddress.nullable().describe("the presale's owner, EIP-55 checksummed"),
    allowlist_root: bytes32Hex.nullable().describe("lowercase 0x-hex; null when the presale has no allowlist"),
    min_eth_goal: weiAmount.nullable(),
    max_eth_goal: weiAmount.nullable(),
    eth_raised: weiAmount,
    end_time: isoTime.nullable(),
    lockup_duration: seconds.nullable(),
    vesting_duration: seconds.nullable(),
    lockup_end_time: isoTime.nullable().describe("ISO 8601, UTC; set once the token is deployed"),
    vesting_end_time: isoTime.nullable().describe("ISO 8601, UTC; set once the token is deployed"),
    token_address: checksummedAddress
      .nullable()
      .describe("the deployed token, EIP-55 checksummed; null before deployment"),
    token_supply: weiAmount.nullable().describe("wei, decimal string; the token supply the presale deployment minted"),
    deployment_config: presaleDeploymentConfig.nullable(),
    started_at: isoTime.nullable().describe("ISO 8601, UTC; block time of PresaleStarted"),
    start_tx_hash: bytes32Hex.nullable().describe("the PresaleStarted transaction, lowercase 0x-hex"),
    created_at: isoTime,
    updated_at: isoTime,
  })
  .meta({ id: "Presale", description: "A presale as the service indexes it from its contract's events" });

export const presaleListResponse = z.object({
  presales: z.array(presaleObject).max(MAX_PRESALES_PAGE),
  totalCount: int.nonnegative().describe("presales matching the filters, all pages"),
});

export const allowlistUploadResponse = treeUploadResponse.extend({ presaleId: int, chainId: int });

export const allowlistResponse = z.object({
  presaleId: int,
  chainId: int,
  merkleRoot,
  allocations: z
    .array(z.object({ address: checksummedAddress, allowedAmountWei: weiAmount, allowedAmountEth: ethAmount }))
    .max(MAX_ALLOCATIONS_PAGE)
    .describe("one page, in account order; an address listed several times has one entry per leaf"),
  totalCount: leafCount.describe("leaves in the allowlist, all pages"),
  nextCursor,
});

export const allowlistProofResponse = z.object({
  isAllowed: z
    .boolean()
    .describe("false (with an empty proof and zero amounts) when the buyer is not on the allowlist"),
  proof: merkleProof,
  allowedAmountWei: weiAmount.describe("wei, decimal string; the largest of the buyer's leaves"),
  allowedAmountEth: ethAmount,
});

export const presaleRefreshResponse = z.object({
  enqueued: z.literal(true),
  message: z.string(),
  data: z.object({ txHash: bytes32Hex.describe("the transaction, lowercase 0x-hex"), chainId: int }),
});
