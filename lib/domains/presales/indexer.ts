// Presale rows from chain events: a transaction's presale events (decoded by the chain layer) folded into
// one change per presale and applied under a row lock. Configuration (PresaleStarted) and deployment
// (PresaleDeployed) never change once emitted; status and ETH raised come from the latest event by chain
// position, so replaying a transaction, or refreshing an older one after a newer one, changes nothing.
import type { Selectable, Updateable } from "kysely";
import { db } from "@/db";
import { toJson } from "@/lib/core/json";
import type { PresalesTable } from "@/db/tables/presales";
import type { PresaleEvent } from "@/lib/platform/chain";
import { linkTokenPresale } from "@/lib/domains/tokens/queries/indexed";
import { insertPresaleIfMissing, lockPresale, updatePresale } from "./queries";

type Change = {
  presaleId: bigint;
  config?: Updateable<PresalesTable>;
  state?: { status?: number; ethRaised?: bigint; block: bigint; logIndex: number };
  deployed?: { token: string; supply: bigint };
};

const seconds = (value: bigint) => new Date(Number(value) * 1000);

/** One change per presale id, in log order; `blockTime` is the transaction's block timestamp. */
export function foldPresaleEvents(events: PresaleEvent[], blockTime: Date): Change[] {
  const changes = new Map<bigint, Change>();
  for (const event of events) {
    const id = event.args.presaleId;
    const change = changes.get(id) ?? { presaleId: id };
    changes.set(id, change);
    const state = (patch: { status?: number; ethRaised?: bigint }) => {
      change.state = { ...change.state, ...patch, block: event.blockNumber, logIndex: event.logIndex };
    };
    switch (event.eventName) {
      case "PresaleStarted": {
        const a = event.args;
        change.config = {
          owner: a.presaleOwner.toLowerCase(),
          allowlist_root: /^0x0{64}$/.test(a.allowlistRoot) ? null : a.allowlistRoot.toLowerCase(),
          deployment_config: toJson(a.deploymentConfig),
          min_eth_goal: a.minEthGoal.toString(),
          max_eth_goal: a.maxEthGoal.toString(),
          end_time: seconds(a.endTime),
          lockup_duration: Number(a.lockupDuration),
          vesting_duration: Number(a.vestingDuration),
          started_at: blockTime,
          start_tx_hash: event.transactionHash.toLowerCase(),
        };
        state({ status: 1, ethRaised: 0n });
        break;
      }
      case "PresaleBuy":
      case "WithdrawFromPresale":
        state({ ethRaised: event.args.ethRaised });
        break;
      case "PresaleStatusChanged":
        state({ status: event.args.status, ethRaised: event.args.ethRaised });
        break;
      case "PresaleDeployed":
        change.deployed = { token: event.args.token.toLowerCase(), supply: event.args.tokenSupply };
        break;
    }
  }
  return [...changes.values()];
}

function deploymentTimes(row: Selectable<PresalesTable>, change: Change, blockTime: Date): Updateable<PresalesTable> {
  const lockup = change.config?.lockup_duration ?? row.lockup_duration;
  const vesting = change.config?.vesting_duration ?? row.vesting_duration;
  if (lockup == null || vesting == null) return {};
  const lockupEnd = new Date(blockTime.getTime() + Number(lockup) * 1000);
  return { lockup_end_time: lockupEnd, vesting_end_time: new Date(lockupEnd.getTime() + Number(vesting) * 1000) };
}

/** Applies one presale's change; returns the presale id. */
export async function applyPresaleChange(
  chainId: number,
  presaleAddress: string,
  change: Change,
  blockTime: Date,
): Promise<number> {
  const presaleId = Number(change.presaleId);
  await db()
    .transaction()
    .execute(async (trx) => {
      await insertPresaleIfMissing(trx, chainId, presaleId, presaleAddress.toLowerCase());
      const row = await lockPresale(trx, chainId, presaleId);
      const update: Updateable<PresalesTable> = { ...change.config, updated_at: new Date() };
      const s = change.state;
      if (
        s &&
        (s.block > BigInt(row.state_block) || (s.block === BigInt(row.state_block) && s.logIndex > row.state_log_index))
      ) {
        if (s.status !== undefined) update.status = s.status;
        if (s.ethRaised !== undefined) update.eth_raised = s.ethRaised.toString();
        Object.assign(update, { state_block: Number(s.block), state_log_index: s.logIndex });
      }
      if (change.deployed && !row.token_address) {
        Object.assign(update, {
          token_address: change.deployed.token,
          token_supply: change.deployed.supply.toString(),
        });
        Object.assign(update, deploymentTimes(row, change, blockTime));
      }
      await updatePresale(trx, row.id, update);
      // The token page finds its presale through tokens.presale_id; a token indexed later links itself.
      const token = row.token_address ?? (change.deployed ? change.deployed.token : null);
      if (token) await linkTokenPresale(trx, chainId, token, presaleId);
    });
  return presaleId;
}
