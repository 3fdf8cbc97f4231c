// The presale refresh job (GET /api/presales/refresh): read the transaction's receipt, decode the presale
// contract's events (the platform's, lib/platform/chain/abi-presale.ts), complete them with what only the
// presale's record holds (getPresale: a deployed token's supply and lockup and vesting ends; the allowlist
// root, from the allowlist contract it names), upsert each presale they name. The presale-index job follows the
// presale contract's events by block range (follow.ts), so presales never refreshed are listed too. Also registers
// the Merkle tree jobs (publish, delete) that presale allowlists and airdrops share.
import { z } from "zod";
import { chainSettings, configuredChainIds, getBlockHeader, getPresaleLogs, getReceipt } from "@/lib/platform/chain";
import { config } from "@/lib/core/config";
import { defineJob, PermanentJobError } from "@/lib/platform/jobs/define";
import type { JobSet } from "@/lib/platform/jobs/registry";
import { defineSchedule } from "@/lib/platform/jobs/schedule";
import { applyPresaleChange, foldPresaleEvents, withRecord } from "./indexer";
import { indexPresaleEvents } from "./follow";

export const refreshPresaleJob = defineJob({
  name: "presale-refresh",
  schema: z.object({ txHash: z.string().regex(/^0x[0-9a-f]{64}$/), chainId: z.number().int().positive() }),
  async handle({ txHash, chainId }, { attempt }) {
    const presaleAddress = chainSettings(chainId).contracts.presale;
    if (!presaleAddress)
      throw new PermanentJobError(
        `no presale contract is configured for chain ${chainId} (PRESALE_ADDRESS_${chainId})`,
      );
    const receipt = await getReceipt(chainId, txHash as `0x${string}`);
    if (!receipt) {
      // Clients refresh right after sending: give a pending transaction a few tries before giving up.
      if (attempt < config().PRESALE_REFRESH_PENDING_ATTEMPTS)
        throw new Error(`transaction ${txHash} has no receipt yet`);
      throw new PermanentJobError(`transaction ${txHash} was not found on chain ${chainId}`);
    }
    if (receipt.status !== "success")
      throw new PermanentJobError(`transaction ${txHash} reverted: it changed no presale`);
    const events = getPresaleLogs(receipt, presaleAddress);
    if (!events.length)
      throw new PermanentJobError(`transaction ${txHash} has no events of the presale contract ${presaleAddress}`);
    const block = await getBlockHeader(chainId, receipt.blockNumber);
    if (!block) throw new Error(`block ${receipt.blockNumber} of chain ${chainId} is not available yet`);
    const blockTime = new Date(Number(block.timestamp) * 1000);
    const presaleIds: number[] = [];
    for (const change of foldPresaleEvents(events, blockTime)) {
      if (change.presaleId > BigInt(Number.MAX_SAFE_INTEGER))
        throw new PermanentJobError(`presale id ${change.presaleId} is out of range`);
      presaleIds.push(await applyPresaleChange(chainId, presaleAddress, await withRecord(chainId, change)));
    }
    return { presaleIds, events: events.length };
  },
});

/** The presale stream (lib/domains/presales/follow.ts) on one chain, or every chain with an RPC. */
export const indexPresalesJob = defineJob({
  name: "presale-index",
  schema: z.object({ chainId: z.number().int().positive().optional() }),
  maxAttempts: 3,
  async handle({ chainId }) {
    const runs = [];
    for (const id of chainId ? [chainId] : configuredChainIds()) runs.push(await indexPresaleEvents(id));
    return { runs };
  },
});

export const indexPresalesSchedule = defineSchedule({
  name: "presale-index",
  everySeconds: 60,
  job: indexPresalesJob,
  payload: {},
});

export const presalesJobs: JobSet = { jobs: [refreshPresaleJob, indexPresalesJob], schedules: [indexPresalesSchedule] };
