// Value shapes that answers share across domains (addresses, wei, hashes), for the response schemas of the
// OpenAPI document and the API tests' checks. Request-side parsers are in params.ts.
import { z } from "zod";
import { getAddress } from "viem";
import { ADDRESS_TEXT, BYTES32_TEXT, EVM_ADDRESS, SOLANA_ADDRESS_TEXT } from "./evm";

const isChecksummed = (value: string) => {
  try {
    return getAddress(value) === value;
  } catch {
    return false;
  }
};

export const checksummedAddress = z
  .string()
  .regex(EVM_ADDRESS)
  .refine(isChecksummed, "must be EIP-55 checksummed")
  .meta({ description: "EIP-55 checksummed address", examples: ["0x4200000000000000000000000000000000000006"] });

export const weiAmount = z
  .string()
  .regex(/^\d{1,78}$/)
  .meta({ description: "wei, decimal string (uint256)", examples: ["250000000000000000"] });

/** Exact decimal ether (the `ethAmount` answers) for an amount of wei, at least one fractional digit ("1.0", "0.000000000000000001"). */
export function formatEth(wei: string | bigint): string {
  const value = BigInt(wei);
  const whole = value / 10n ** 18n;
  const fraction = (value % 10n ** 18n).toString().padStart(18, "0").replace(/0+$/, "");
  return `${whole}.${fraction || "0"}`;
}

export const ethAmount = z
  .string()
  .regex(/^\d+\.\d+$/)
  .meta({
    description:
      'the same amount in ether, exact decimal with at least one fractional digit ("1.0", "0.000000000000000001")',
    examples: ["0.25"],
  });

/** A pool as answers show it: a 20-byte pool address, a 32-byte Uniswap v4 pool id, or a Solana pool (base58). */
export const poolKey = z
  .string()
  .regex(new RegExp(`^(${ADDRESS_TEXT}|${BYTES32_TEXT}|${SOLANA_ADDRESS_TEXT})$`))
  .describe("a pool address (0x + 40 hex), a Uniswap v4 pool id (0x + 64 hex) or a Solana pool (base58)");

export const bytes32Hex = z
  .string()
  .regex(/^0x[0-9a-f]{64}$/)
  .describe("32 bytes, lowercase 0x-hex");
