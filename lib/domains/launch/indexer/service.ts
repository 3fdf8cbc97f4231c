// POST /api/tokens/index-by-address and POST /api/tokens/save-deployed-token/from-ui.
import { getAddress, type Address } from "viem";
import { z } from "zod";
import { db } from "@/db";
import { configuredChainIds } from "@/lib/platform/chain";
import { badRequest, notFound } from "@/lib/core/errors";
import type { PublicPrincipal, UserPrincipal } from "@/lib/core/principal";
import { zAddress, zIntLike, zTxHash } from "@/lib/core/input";
import { enforceRateLimit } from "@/lib/platform/kv/rate-limit";
import { enqueue } from "@/lib/platform/jobs/define";
import { dispatchJobs } from "@/lib/platform/jobs/dispatch";
import { upsertTokenSubmission } from "@/lib/domains/launch/queries/token-index";
import { indexedFactories } from "./factories";
import { indexTokenJob } from "./jobs";
import { indexByAddress } from "./lookup";
import { DEFAULT_CHAIN_ID } from "@/lib/core/evm";

export const indexByAddressBody = z.object({ address: zAddress });
export const fromUiBody = z.object({ address: zAddress, tx_hash: zTxHash, chain_id: zIntLike(1, 2 ** 31 - 1) });

export const indexByAddressIpLimit = { name: "index-by-address", limit: 5, windowSeconds: 60 };
const perAddressLimit = { name: "index-by-address-token", limit: 1, windowSeconds: 3600 };
export const fromUiIpLimit = { name: "save-deployed-token", limit: 30, windowSeconds: 60 };

export async function indexTokenByAddress(address: Address) {
  // Counted whatever the outcome: the limit protects the RPC from repeated searches for one address.
  await enforceRateLimit(perAddressLimit, `token:${address.toLowerCase()}`);
  const outcome = await indexByAddress(DEFAULT_CHAIN_ID, address);
  if (outcome.status !== "indexed") {
    throw notFound("no TokenCreated event for this address from the configured factories in the searched blocks");
  }
  return { success: true, address: getAddress(address), message: "Token indexed" };
}

/** With a user, the submission is saved (attributing the token to the user's FID) and indexed; without, only indexed. */
export async function saveDeployedTokenFromUi(
  body: z.infer<typeof fromUiBody>,
  principal: UserPrincipal | PublicPrincipal,
) {
  const chainId = body.chain_id;
  if (!configuredChainIds().includes(chainId) || !indexedFactories(chainId).length) {
    throw badRequest(`chain_id: chain ${chainId} is not indexed here`, [
      { in: "body", path: "chain_id", message: `chain ${chainId} is not indexed here` },
    ]);
  }
  const user = principal.kind === "user" ? principal : null;
  const payload = { chainId, address: body.address, txHash: body.tx_hash, fid: user?.fid ?? null };
  const hour = Math.floor(Date.now() / 3_600_000);
  const dedupeKey = `index-token:${chainId}:${body.address}:${body.tx_hash}:${user?.userId ?? "-"}:${hour}`;
  await db()
    .transaction()
    .execute(async (trx) => {
      if (user) {
        await upsertTokenSubmission(trx, {
          chain_id: chainId,
          address: body.address,
          tx_hash: body.tx_hash,
          user_id: user.userId,
          fid: user.fid,
        });
      }
      await enqueue(indexTokenJob, payload, { trx, dedupeKey });
    });
  await dispatchJobs();
  return { success: true, tokenAddress: getAddress(body.address) };
}
