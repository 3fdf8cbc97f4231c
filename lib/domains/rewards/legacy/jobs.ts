// The legacy claim stream as a job, run every minute by a schedule on each reachable chain with legacy lockers.
import { z } from "zod";
import { configuredChainIds, PRODUCTION_LEGACY_FACTORIES } from "@/lib/platform/chain";
import { defineJob } from "@/lib/platform/jobs/define";
import type { JobSet } from "@/lib/platform/jobs/registry";
import { defineSchedule } from "@/lib/platform/jobs/schedule";
import { indexLegacyClaims } from "./indexer";

/** Chains where the generations before v4 launched tokens. */
const hasLegacyLockers = (chainId: number) => chainId in PRODUCTION_LEGACY_FACTORIES;

export const indexLegacyClaimsJob = defineJob({
  name: "legacy-claims-index",
  /** Without chainId: every chain with an RPC (RPC_URL_<id>) and legacy lockers. */
  schema: z.object({ chainId: z.number().int().positive().optional() }),
  maxAttempts: 3,
  async handle({ chainId }) {
    const chains = chainId ? [chainId] : configuredChainIds().filter(hasLegacyLockers);
    const runs = [];
    for (const id of chains) runs.push(await indexLegacyClaims(id));
    return { runs };
  },
});

export const indexLegacyClaimsSchedule = defineSchedule({
  name: "legacy-claims-index",
  everySeconds: 60,
  job: indexLegacyClaimsJob,
  payload: {},
});

export const legacyClaimsJobs: JobSet = { jobs: [indexLegacyClaimsJob], schedules: [indexLegacyClaimsSchedule] };
