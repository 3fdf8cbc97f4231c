// The token blocklist: a block is global (no chain) or for one chain. Managed with `npm run tokens`.
import { db } from "@/db";
import { checksum } from "@/lib/core/evm";
import { deleteBlock, findBlock, upsertBlock } from "./queries/blocks";

/**
 * With a chain: blocked globally or on that chain. Without one (the global check): blocked anywhere, so
 * that a caller who does not say which chain never misses a block.
 */
export async function isBlocked(address: string, chainId?: number) {
  const blocked = await findBlock(db(), address, chainId);
  return { address: checksum(address)!, chainId: chainId ?? null, blocked };
}

/** Idempotent: blocking again updates the reason. `chainId` null blocks on every chain. */
export async function blockToken(address: string, chainId: number | null, reason: string | null): Promise<void> {
  await upsertBlock(db(), address, chainId, reason);
}

/** Removes exactly that block (global, or that chain's); returns whether there was one. */
export function unblockToken(address: string, chainId: number | null): Promise<boolean> {
  return deleteBlock(db(), address, chainId);
}
