// Reading the deployments (fees and reward split, the token object's `extensions`) of tokens indexed without them:
// before the indexer read deploying calls, or while a call could not be read. `npm run tokens -- read-deployments`
// walks them by id, a few at a time, and indexes each again from its TokenCreated; a run that stops says where to
// resume. Deployments through another contract than the factory stay hook-only, and are visited again by a later run.
import type { Address } from "viem";
import { db } from "@/db";
import { configuredChainIds } from "@/lib/platform/chain";
import { findUnreadDeployments } from "@/lib/domains/tokens/service";
import { indexAtBlock } from "./lookup";

/** Tokens indexed again at once: each costs a getLogs of its block, its block's header and its deploying call. */
const TOKENS_AT_ONCE = 8;

/** What reading one token's deployment found: its split (and fees when recognised), the hook alone, or no event. */
export type DeploymentRead = { id: number; chainId: number; address: string; found: "split" | "hook" | "not_found" };

/** A token's read failed (the chain, or the database): the tokens before `resumeFrom` are read, from it on not all. */
export class DeploymentReadStopped extends Error {
  constructor(
    readonly resumeFrom: number,
    cause: unknown,
  ) {
    super(`stopped at token ${resumeFrom}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "DeploymentReadStopped";
  }
}

/**
 * Reads the deployments of at most `limit` tokens from id `fromId` on, in id order: on one chain, or on every chain the
 * service can reach (RPC_URL_<id>), as the minute indexer. Returns how many it read and the id to go on from (null:
 * none left); throws DeploymentReadStopped when a token's read fails, once the rest of its batch has settled.
 */
export async function readUnreadDeployments(options: {
  chainId?: number;
  fromId?: number;
  limit: number;
  onRead?: (read: DeploymentRead) => void;
}): Promise<{ read: number; next: number | null }> {
  const chainIds = options.chainId !== undefined ? [options.chainId] : configuredChainIds();
  let afterId = (options.fromId ?? 1) - 1;
  let read = 0;
  while (read < options.limit) {
    const batch = await findUnreadDeployments(db(), {
      chainIds,
      afterId,
      limit: Math.min(TOKENS_AT_ONCE, options.limit - read),
    });
    if (!batch.length) return { read, next: null };
    // Settled, not raced: no read of a failed batch is still writing when the caller hears of the failure.
    const settled = await Promise.allSettled(
      batch.map((t) =>
        indexAtBlock(t.chain_id, t.contract_address as Address, t.factory_address as Address, t.block_number),
      ),
    );
    batch.forEach((t, i) => {
      const outcome = settled[i]!;
      if (outcome.status === "rejected") return;
      const row = outcome.value.status === "indexed" ? outcome.value.token : null;
      const fees = (row?.extensions as { fees?: object } | null | undefined)?.fees;
      const found = !row ? "not_found" : fees && "recipients" in fees ? "split" : "hook";
      options.onRead?.({ id: t.id, chainId: t.chain_id, address: t.contract_address, found });
    });
    const failed = settled.findIndex((s) => s.status === "rejected");
    if (failed >= 0)
      throw new DeploymentReadStopped(batch[failed]!.id, (settled[failed] as PromiseRejectedResult).reason);
    read += batch.length;
    afterId = batch.at(-1)!.id;
  }
  const more = await findUnreadDeployments(db(), { chainIds, afterId, limit: 1 });
  return { read, next: more[0]?.id ?? null };
}
