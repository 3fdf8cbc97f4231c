// The presale refresh job (GET /api/presales/refresh): read the transaction's receipt, decode the presale
// contract's events, upsert each presale they name. Also registers the Merkle tree jobs (publish, delete)
// that presale allowlists and airdrops share.
import { z } from "zod";
import { chainSettings, getBlockHeader, getPresaleLogs, getReceipt } from "@/lib/platform/chain";
import { config } from "@/lib/core/config";
import { defineJob, PermanentJobError } from "@/lib/platform/jobs/define";
import "@/lib/domains/merkle/jobs";
import { applyPresaleChange, foldPresaleEvents } from "./indexer";

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
      presaleIds.push(await applyPresaleChange(chainId, presaleAddress, change, blockTime));
    }
    return { presaleIds, events: events.length };
  },
});
