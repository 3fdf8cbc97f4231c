// POST /api/tokens/index-by-address, POST /api/tokens/index (by transaction) and
// POST /api/tokens/save-deployed-token/from-ui. Each answers the token's page (`url`), as the platform does.
import type { Address } from "viem";
import { z } from "zod";
import { db } from "@/db";
import { configuredChainIds } from "@/lib/platform/chain";
import { badRequest, notFound } from "@/lib/core/errors";
import type { PublicPrincipal, UserPrincipal } from "@/lib/core/principal";
import { zAddress, zIntLike, zTxHash } from "@/lib/core/input";
import { enforceRateLimit, ipSubject } from "@/lib/platform/kv/rate-limit";
import { enqueue } from "@/lib/platform/jobs/define";
import { dispatchJobs } from "@/lib/platform/jobs/dispatch";
import { upsertTokenSubmission } from "@/lib/domains/launch/queries/token-index";
import { indexedFactories } from "./factories";
import { indexTokenJob } from "./jobs";
import { indexByAddress, indexFromTransaction } from "./lookup";
import { DEFAULT_CHAIN_ID, checksum } from "@/lib/core/evm";

export const indexByAddressBody = z.object({
  address: zAddress.describe("the token's contract address"),
  chainId: zIntLike(1, 2 ** 31 - 1)
    .refine((id) => id === DEFAULT_CHAIN_ID, `only chain ${DEFAULT_CHAIN_ID} is indexed by address`)
    .optional()
    .describe(`the token's chain: ${DEFAULT_CHAIN_ID} only (as on the platform)`),
});
export const fromUiBody = z.object({ address: zAddress, tx_hash: zTxHash, chain_id: zIntLike(1, 2 ** 31 - 1) });
export const indexByTransactionBody = z.object({
  txHash: zTxHash.describe("the deploying transaction"),
  chainId: zIntLike(1, 2 ** 31 - 1).describe("its chain (an indexed one)"),
});

export const indexByAddressIpLimit = { name: "index-by-address", limit: 5, windowSeconds: 60 };
const perAddressLimit = { name: "index-by-address-token", limit: 1, windowSeconds: 3600 };
export const fromUiIpLimit = { name: "save-deployed-token", limit: 30, windowSeconds: 60 };
export const indexByTransactionLimit = { name: "tokens-index", limit: 10, windowSeconds: 60 };

/** The token's page on this service's explorer (`origin`: PUBLIC_BASE_URL, else the request's). */
export const tokenPageUrl = (origin: string, address: Address) => `${origin}/tokens/${checksum(address)}`;

function assertIndexedChain(chainId: number, path: string): void {
  if (configuredChainIds().includes(chainId) && indexedFactories(chainId).length) return;
  throw badRequest(`${path}: chain ${chainId} is not indexed here`, [
    { in: "body", path, message: `chain ${chainId} is not indexed here` },
  ]);
}

/**
 * `ip`: the caller's (clientIp). A token with a known transaction (indexed already, or deployed through this
 * service) is indexed from its receipt without counting; a search of the chain's logs counts against the client's
 * one an hour for this address, whatever it finds. Per client, so that nobody can use up the search of a token
 * for everyone (say, by asking for a predicted address before its deployment).
 */
export async function indexTokenByAddress(address: Address, origin: string, ip: string) {
  const outcome = await indexByAddress(DEFAULT_CHAIN_ID, address, null, async () => {
    await enforceRateLimit(perAddressLimit, `${ipSubject(ip)}:token:${address.toLowerCase()}`);
    return true;
  });
  if (outcome.status !== "indexed") {
    throw notFound("no TokenCreated event for this address from the configured factories in the searched blocks");
  }
  return {
    success: true as const,
    address: checksum(address),
    message: "Token indexed successfully",
    url: tokenPageUrl(origin, address),
  };
}

/** POST /api/tokens/index: the token a transaction created (its first TokenCreated from an indexed factory). */
export async function indexTokenByTransaction(body: z.infer<typeof indexByTransactionBody>, origin: string) {
  assertIndexedChain(body.chainId, "chainId");
  const outcome = await indexFromTransaction(body.chainId, body.txHash);
  if (outcome.status === "pending") throw notFound("no receipt for this transaction on that chain (yet)");
  if (outcome.status === "not_found") throw notFound("this transaction created no token through the indexed factories");
  const address = checksum(outcome.token.contract_address);
  return { success: true as const, address, url: tokenPageUrl(origin, address) };
}

/**
 * With a user, the submission is saved (attributing the token to the user's FID) and indexed; without, only indexed.
 * `ip`: the caller's, whose searches of the logs the job counts (indexTokenJob).
 */
export async function saveDeployedTokenFromUi(
  body: z.infer<typeof fromUiBody>,
  principal: UserPrincipal | PublicPrincipal,
  origin: string,
  ip: string,
) {
  const chainId = body.chain_id;
  assertIndexedChain(chainId, "chain_id");
  const user = principal.kind === "user" ? principal : null;
  const payload = {
    chainId,
    address: body.address,
    txHash: body.tx_hash,
    fid: user?.fid ?? null,
    client: ipSubject(ip),
  };
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
      await enqueue(indexTokenJob, payload, { db: trx, dedupeKey });
    });
  await dispatchJobs();
  return { success: true as const, tokenAddress: checksum(body.address), url: tokenPageUrl(origin, body.address) };
}
