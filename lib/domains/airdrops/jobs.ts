// The airdrop-claim indexer as a job, run every minute by a schedule for each chain the service can reach.
import { z } from "zod";
import { configuredChainIds } from "@/lib/platform/chain";
import { defineJob } from "@/lib/platform/jobs/define";
import type { JobSet } from "@/lib/platform/jobs/registry";
import { defineSchedule } from "@/lib/platform/jobs/schedule";
import { indexAirdropClaims } from "./indexer";

export const indexAirdropClaimsJob = defineJob({
  name: "airdrop-claims-index",
  /** Without chainId: every chain with an RPC (RPC_URL_<id>). */
  schema: z.object({ chainId: z.number().int().positive().optional() }),
  maxAttempts: 3,
  async handle({ chainId }) {
    const chains = chainId ? [chainId] : configuredChainIds();
    const runs = [];
    for (const id of chains) runs.push(await indexAirdropClaims(id));
    return { runs };
  },
});

export const indexAirdropClaimsSchedule = defineSchedule({
  name: "airdrop-claims-index",
  everySeconds: 60,
  job: indexAirdropClaimsJob,
  payload: {},
});

export const airdropsJobs: JobSet = { jobs: [indexAirdropClaimsJob], schedules: [indexAirdropClaimsSchedule] };
