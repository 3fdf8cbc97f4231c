// The deploy domain's job: deploy-token, one per accepted request.
import { z } from "zod";
import { defineJob } from "@/lib/platform/jobs/define";
import type { JobSet } from "@/lib/platform/jobs/registry";
import { runDeployment } from "./runner";

const DEPLOY_MAX_ATTEMPTS = 10;

export const deployTokenJob = defineJob({
  name: "deploy-token",
  schema: z.object({ deploymentId: z.number().int().positive() }),
  maxAttempts: DEPLOY_MAX_ATTEMPTS,
  handle: ({ deploymentId }, ctx) => runDeployment(deploymentId, ctx, DEPLOY_MAX_ATTEMPTS),
});

export const deployJobs: JobSet = { jobs: [deployTokenJob] };
