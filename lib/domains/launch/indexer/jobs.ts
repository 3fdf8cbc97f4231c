// The indexer's jobs: token-index follows TokenCreated on every reachable chain every minute (a Vercel
// cron at /api/cron/token-index; the local worker's tick); index-token indexes one token on request.
import { z } from "zod";
import { configuredChainIds } from "@/lib/platform/chain";
import { defineJob } from "@/lib/platform/jobs/define";
import type { JobSet } from "@/lib/platform/jobs/registry";
import { defineSchedule } from "@/lib/platform/jobs/schedule";
import { followTokenCreated } from "./follow";
import { followHeadJob, followHeadSchedule } from "./head";
import { tryRateLimit } from "@/lib/platform/kv/rate-limit";
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

/**
 * Searches of the logs an index-token job makes for one asker (its ipSubject), as index-by-address allows one client
 * (5 requests a minute): any address with any mined transaction would otherwise buy a search of up to
 * TOKEN_LOOKUP_MAX_RANGES ranges, 30 a minute (from-ui's limit). Past it the job does not search; the minute
 * indexer still finds a real token.
 */
export const indexSearchLimit = { name: "index-token-search", limit: 5, windowSeconds: 60 };

export const indexTokenJob = defineJob({
  name: "index-token",
  schema: z.object({
    chainId: z.number().int().positive(),
    address: hex(40),
    txHash: hex(64).optional(),
    fid: z.number().int().positive().nullable().optional(),
    /** Who asked (ipSubject): its searches are counted (indexSearchLimit). */
    client: z.string().max(100).optional(),
  }),
  // A transaction still pending is retried (2, 4, 8, 16, 32 s apart).
  maxAttempts: 6,
  async handle({ chainId, address, txHash, fid, client }) {
    const token = address as `0x${string}`;
    let outcome = txHash ? await indexFromTransaction(chainId, txHash as `0x${string}`, token, fid ?? null) : null;
    if (outcome?.status === "pending") throw new Error(`transaction ${txHash} has no receipt yet`);
    // A transaction without this token's TokenCreated (a wrong hash): the address alone may still find it.
    if (!outcome || outcome.status === "not_found") {
      const maySearch = client ? () => tryRateLimit(indexSearchLimit, client) : undefined;
      outcome = await indexByAddress(chainId, token, fid ?? null, maySearch);
    }
    return outcome.status === "indexed" ? { status: "indexed", tokenId: outcome.token.id } : { status: "not_found" };
  },
});

/** The indexer's jobs: the follower of TokenCreated, the lookup of one token, and the head follower's turns. */
export const indexerJobs: JobSet = {
  jobs: [followTokenCreatedJob, indexTokenJob, followHeadJob],
  schedules: [followTokenCreatedSchedule, followHeadSchedule],
};
