// The indexer's jobs: token-index follows TokenCreated on every reachable chain every minute (a Vercel
// cron at /api/cron/token-index; the local worker's tick); index-token indexes one token on request.
import { z } from "zod";
import { configuredChainIds } from "@/lib/platform/chain";
import { defineJob } from "@/lib/platform/jobs/define";
import { defineSchedule } from "@/lib/platform/jobs/schedule";
import { followTokenCreated } from "./follow";
import { indexByAddress, indexFromTransaction } from "./lookup";

export const followTokenCreatedJob = defineJob({
  name: "token-index",
  /** Without chainId: every chain with an RPC (RPC_URL_<id>). */
  schema: z.object({ chainId: z.number().int().positive().optional() }),
  // The next run (a minute later) starts from the same checkpoint: no point retrying this one.
  maxAttempts: 1,
  async handle({ chainId }) {
    const runs = [];
    for (const id of chainId ? [chainId] : configuredChainIds()) runs.push(...(await followTokenCreated(id)));
    return { runs };
  },
});

export const followTokenCreatedSchedule = defineSchedule({
  name: "token-index",
  everySeconds: 60,
  job: followTokenCreatedJob,
  payload: {},
});

const hex = (length: number) => z.string().regex(new RegExp(`^0x[0-9a-f]{${length}}$`));

export const indexTokenJob = defineJob({
  name: "index-token",
  schema: z.object({
    chainId: z.number().int().positive(),
    address: hex(40),
    txHash: hex(64).optional(),
    fid: z.number().int().positive().nullable().optional(),
  }),
  // A transaction still pending is retried (2, 4, 8, 16, 32 s apart).
  maxAttempts: 6,
  async handle({ chainId, address, txHash, fid }) {
    const token = address as `0x${string}`;
    let outcome = txHash ? await indexFromTransaction(chainId, txHash as `0x${string}`, token, fid ?? null) : null;
    if (outcome?.status === "pending") throw new Error(`transaction ${txHash} has no receipt yet`);
    // A transaction without this token's TokenCreated (a wrong hash): the address alone may still find it.
    if (!outcome || outcome.status === "not_found") outcome = await indexByAddress(chainId, token, fid ?? null);
    return outcome.status === "indexed" ? { status: "indexed", tokenId: outcome.token.id } : { status: "not_found" };
  },
});
