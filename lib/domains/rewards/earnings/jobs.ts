// The fee-claim indexer as a job, run every minute by a schedule for each chain the service can reach.
import { z } from "zod";
import { configuredChainIds } from "@/lib/platform/chain";
import { defineJob } from "@/lib/platform/jobs/define";
import type { JobSet } from "@/lib/platform/jobs/registry";
import { defineSchedule } from "@/lib/platform/jobs/schedule";
import { indexFeeClaims } from "./indexer";

export const indexFeeClaimsJob = defineJob({
  name: "earnings-index",
  /** Without chainId: every chain with an RPC (RPC_URL_<id>). */
  schema: z.object({ chainId: z.number().int().positive().optional() }),
  maxAttempts: 3,
  async handle({ chainId }) {
    const chains = chainId ? [chainId] : configuredChainIds();
    const runs = [];
    for (const id of chains) runs.push(await indexFeeClaims(id));
    return { runs };
  },
});

export const indexFeeClaimsSchedule = defineSchedule({
  name: "earnings-index",
  everySeconds: 60,
  job: indexFeeClaimsJob,
  payload: {},
});

export const earningsJobs: JobSet = { jobs: [indexFeeClaimsJob], schedules: [indexFeeClaimsSchedule] };
