// The deploy domain's jobs: deploy-token (one per accepted request), plus the indexer's jobs.
import { z } from "zod";
import { defineJob } from "@/lib/platform/jobs/define";
import { runDeployment } from "./runner";
import "@/lib/domains/launch/indexer/jobs";

const DEPLOY_MAX_ATTEMPTS = 10;

export const deployTokenJob = defineJob({
  name: "deploy-token",
  schema: z.object({ deploymentId: z.number().int().positive() }),
  maxAttempts: DEPLOY_MAX_ATTEMPTS,
  handle: ({ deploymentId }, ctx) => runDeployment(deploymentId, ctx, DEPLOY_MAX_ATTEMPTS),
});
