// get-claim-info and get-lp-info/{address}: a token's LP locker and position, from the stored token and the chain.
// Every generation answers: the legacy ones (v0 to v3.1) with their Uniswap V3 position, v4 with its locker's.
import type { Address } from "viem";
import { displayAddress, checksum } from "@/lib/core/evm";
import { notFound } from "@/lib/core/errors";
import { isLegacyTokenType, readLegacyLocker, readLpDeposit, readTotalSupply } from "@/lib/platform/chain";
import { tokenRowByAddress } from "@/lib/domains/tokens/service";
import { pairedTokenOf } from "../fees/estimates";

async function storedToken(address: string) {
  const row = await tokenRowByAddress(address);
  if (!row) throw notFound(`no token has address ${address}`);
  return row;
}

/** The stored locker and position: no chain read. A v4 token has no position NFT of its own (lpNftId null). */
export async function claimInfo(address: string) {
  const row = await storedToken(address);
  return {
    lockerAddress: displayAddress(row.locker_address),
    lpNftId: isLegacyTokenType(row.type) ? row.lp_nft_id : null,
    contract_address: displayAddress(row.contract_address)!,
    type: row.type,
  };
}

/** `part` as a percentage of `whole`, rounded down to two decimals, without trailing zeros ("100", "33.3"). */
export function percentOf(part: bigint, whole: bigint): string {
  if (whole <= 0n) return "0";
  const hundredths = (part * 10_000n) / whole;
  const whole100 = hundredths / 100n;
  const cents = (hundredths % 100n).toString().padStart(2, "0").replace(/0+$/, "");
  return cents ? `${whole100}.${cents}` : `${whole100}`;
}

/**
 * The pool, locker and position, what the deployment put into the pool (its deploy block's deposit event), the supply,
 * and the share of it locked. The chain reads run together: one multicall and one eth_getLogs of one block.
 */
export async function lpInfo(address: string) {
  const row = await storedToken(address);
  const chainId = row.chain_id;
  const token = checksum(row.contract_address);
  const locker = row.locker_address ? checksum(row.locker_address) : null;
  const answer = {
    poolAddress: displayAddress(row.pool_address),
    lockerAddress: locker,
    token_name: row.name,
    token_symbol: row.symbol,
  };
  const type = row.type;
  if (isLegacyTokenType(type) && locker && row.lp_nft_id) {
    const lpNftId = BigInt(row.lp_nft_id);
    const [reading, deposit] = await Promise.all([
      readLegacyLocker(chainId, { type, locker, lpNftId, token }),
      row.block_number === null
        ? null
        : readLpDeposit(chainId, {
            token,
            block: row.block_number,
            lpNftId,
            pairedToken: pairedTokenOf(row.pool_config, chainId),
          }),
    ]);
    // The position manager's answer, when it gave one: a locker that released the position no longer locks it.
    const released = reading.positionOwner !== null && reading.positionOwner !== locker;
    return shaped(
      answer,
      row.lp_nft_id,
      deposit?.tokenAmount ?? null,
      reading.totalSupply ?? BigInt(row.supply),
      released,
    );
  }
  const [supply, deposit] = await Promise.all([
    readTotalSupply(chainId, token),
    row.block_number === null || !locker
      ? null
      : readLpDeposit(chainId, { token, block: row.block_number, v4Locker: locker }),
  ]);
  const lpNftId = isLegacyTokenType(type) ? row.lp_nft_id : (deposit?.positionId.toString() ?? null);
  return shaped(answer, lpNftId, deposit?.tokenAmount ?? null, supply ?? BigInt(row.supply), false);
}

function shaped(
  answer: { poolAddress: string | null; lockerAddress: Address | null; token_name: string; token_symbol: string },
  lpNftId: string | null,
  deposited: bigint | null,
  totalSupply: bigint,
  released: boolean,
) {
  return {
    poolAddress: answer.poolAddress,
    lockerAddress: answer.lockerAddress,
    lpNftId,
    amountDepositedIntoLP: deposited === null ? null : deposited.toString(),
    totalSupply: totalSupply.toString(),
    percentLocked: deposited === null ? null : released ? "0" : percentOf(deposited, totalSupply),
    token_name: answer.token_name,
    token_symbol: answer.token_symbol,
  };
}
