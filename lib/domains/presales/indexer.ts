// Presale rows from the platform presale extension's events: a transaction's presale events (decoded by the
// chain layer) folded into one change per presale and applied under a row lock. Configuration (PresaleStarted)
// and deployment (PresaleDeployed) never change once emitted; status and ETH raised come from the latest event
// by chain position, so replaying a transaction, or refreshing an older one after a newer one, changes nothing.
// The events carry no status: PresaleStarted means Active, PresaleBuy Active or SuccessfulMaximumHit (the
// maximum goal reached), PresaleFailed Failed, PresaleDeployed Claimable; withdrawals and claims keep it.
import type { Transaction, Updateable } from "kysely";
import { db } from "@/db";
import type { DB } from "@/db/types";
import { toJson } from "@/lib/core/json";
import type { PresalesTable } from "@/db/tables/presales";
import { PRESALE_STATUS, readPresale, readPresaleAllowlistRoot, type PresaleEvent } from "@/lib/platform/chain";
import { linkTokenPresale } from "@/lib/domains/tokens/service";
import { insertPresaleIfMissing, lockPresale, updatePresale } from "./queries";

/** "bought": after a buy, Active or SuccessfulMaximumHit by the ETH raised against the maximum goal. */
type FoldedStatus = number | "bought";

export type Change = {
  presaleId: bigint;
  config?: Updateable<PresalesTable>;
  /** The allowlist contract PresaleStarted names (zero: none); the job reads its root. */
  allowlist?: string;
  state?: { status?: FoldedStatus; ethRaised?: bigint; block: bigint; logIndex: number };
  /** The deployed token; the job adds what getPresale holds after deployment (supply, lockup and vesting ends). */
  deployed?: { token: string; supply?: bigint; lockupEndTime?: bigint; vestingEndTime?: bigint };
};

const seconds = (value: bigint) => new Date(Number(value) * 1000);

/** One change per presale id, in log order; `blockTime` is the transaction's block timestamp. */
export function foldPresaleEvents(events: PresaleEvent[], blockTime: Date): Change[] {
  const changes = new Map<bigint, Change>();
  for (const event of events) {
    const id = event.args.presaleId;
    const change = changes.get(id) ?? { presaleId: id };
    changes.set(id, change);
    const state = (patch: { status?: FoldedStatus; ethRaised?: bigint }) => {
      change.state = { ...change.state, ...patch, block: event.blockNumber, logIndex: event.logIndex };
    };
    switch (event.eventName) {
      case "PresaleStarted": {
        const a = event.args;
        change.config = {
          owner: a.presaleOwner.toLowerCase(),
          deployment_config: toJson(a.deploymentConfig),
          min_eth_goal: a.minEthGoal.toString(),
          max_eth_goal: a.maxEthGoal.toString(),
          end_time: new Date(blockTime.getTime() + Number(a.presaleDuration) * 1000),
          lockup_duration: Number(a.lockupDuration),
          vesting_duration: Number(a.vestingDuration),
          started_at: blockTime,
          start_tx_hash: event.transactionHash.toLowerCase(),
        };
        change.allowlist = a.allowlist.toLowerCase();
        state({ status: PRESALE_STATUS.Active, ethRaised: 0n });
        break;
      }
      case "PresaleBuy":
        state({ status: "bought", ethRaised: event.args.ethRaised });
        break;
      case "WithdrawFromPresale":
        state({ ethRaised: event.args.ethRaised });
        break;
      case "PresaleFailed":
        state({ status: PRESALE_STATUS.Failed });
        break;
      case "PresaleDeployed":
        change.deployed = { token: event.args.token.toLowerCase() };
        state({ status: PRESALE_STATUS.Claimable });
        break;
      case "ClaimTokens":
      case "ClaimEth":
        break;
    }
  }
  return [...changes.values()];
}

/** Applies one presale's change in its own transaction; returns the presale id. */
export async function applyPresaleChange(chainId: number, presaleAddress: string, change: Change): Promise<number> {
  await db()
    .transaction()
    .execute((trx) => applyPresaleChangeIn(trx, chainId, presaleAddress, change));
  return Number(change.presaleId);
}

/** Applies one presale's change in the caller's transaction (the follower's, beside its checkpoint). */
export async function applyPresaleChangeIn(
  trx: Transaction<DB>,
  chainId: number,
  presaleAddress: string,
  change: Change,
): Promise<void> {
  const presaleId = Number(change.presaleId);
  await insertPresaleIfMissing(trx, chainId, presaleId, presaleAddress.toLowerCase());
  const row = await lockPresale(trx, chainId, presaleId);
  const update: Updateable<PresalesTable> = { ...change.config, updated_at: new Date() };
  const s = change.state;
  if (
    s &&
    (s.block > BigInt(row.state_block) || (s.block === BigInt(row.state_block) && s.logIndex > row.state_log_index))
  ) {
    if (s.ethRaised !== undefined) update.eth_raised = s.ethRaised.toString();
    if (s.status === "bought") {
      const max = change.config?.max_eth_goal ?? row.max_eth_goal;
      const maxHit = max != null && s.ethRaised !== undefined && s.ethRaised >= BigInt(max);
      update.status = maxHit ? PRESALE_STATUS.SuccessfulMaximumHit : PRESALE_STATUS.Active;
    } else if (s.status !== undefined) update.status = s.status;
    Object.assign(update, { state_block: Number(s.block), state_log_index: s.logIndex });
  }
  const d = change.deployed;
  if (d && !row.token_address) {
    update.token_address = d.token;
    if (d.supply !== undefined) update.token_supply = d.supply.toString();
    if (d.lockupEndTime !== undefined) update.lockup_end_time = seconds(d.lockupEndTime);
    if (d.vestingEndTime !== undefined) update.vesting_end_time = seconds(d.vestingEndTime);
  }
  await updatePresale(trx, row.id, update);
  // The token page finds its presale through tokens.presale_id; a token indexed later links itself.
  const token = row.token_address ?? (change.deployed ? change.deployed.token : null);
  if (token) await linkTokenPresale(trx, chainId, token, presaleId);
}

/** The change with what the events do not carry, read from the presale's record at the chain's head. */
export async function withRecord(chainId: number, change: Change): Promise<Change> {
  if (change.config && change.allowlist && BigInt(change.allowlist) !== 0n) {
    const root = await readPresaleAllowlistRoot(chainId, change.presaleId);
    change.config.allowlist_root = root && BigInt(root) !== 0n ? root.toLowerCase() : null;
  }
  if (change.deployed) {
    const record = await readPresale(chainId, change.presaleId);
    Object.assign(change.deployed, {
      supply: record.tokenSupply,
      lockupEndTime: record.lockupEndTime,
      vestingEndTime: record.vestingEndTime,
    });
  }
  return change;
}
