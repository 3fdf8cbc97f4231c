// Answer shapes of the deploy endpoints (COMPAT, "deploy endpoints"), for the OpenAPI document.
import { z } from "zod";
import { checksummedAddress } from "@/lib/core/answers";
import { presaleDeploymentConfig } from "@/lib/domains/presales/responses";
import { tokenObject } from "@/lib/domains/tokens/responses";
import { DRY_RUN_MESSAGE, DRY_RUN_REPLAY_MESSAGE, ENQUEUED_MESSAGE } from "./service";

const isoTime = z.iso.datetime().describe("ISO 8601, UTC");

export const deployShapeEnum = z
  .enum(["4.0.0", "0.3.1", "0.3.0", "3.1.0"])
  .describe("the request shape the body was read as");

const expectedAddress = checksummedAddress.describe("the token's address, predicted by simulating the factory call");

const enqueuedAnswer = z
  .object({ success: z.literal(true), message: z.literal(ENQUEUED_MESSAGE), expectedAddress })
  .meta({
    id: "DeployEnqueued",
    description: "The deployment is queued: poll GET /api/tokens/deploy/{requestKey} for its status",
  });
const dryRunAnswer = z
  .object({
    success: z.literal(true),
    message: z
      .enum([DRY_RUN_MESSAGE, DRY_RUN_REPLAY_MESSAGE])
      .describe("the second when the requestKey was already used: nothing is simulated"),
    expectedAddress,
    dryRun: z.literal(true),
    shape: deployShapeEnum,
    // The factory's DeploymentConfig: one definition, kept with the presale answers that carry it too.
    deploymentConfig: presaleDeploymentConfig.describe(
      "the deployToken call that would be sent (uint256 members as decimal strings); nothing is stored or enqueued",
    ),
  })
  .meta({ id: "DeployDryRun", description: "A dry run's report: what would be deployed, nothing stored" });

/** POST /api/tokens/deploy and /deploy/split: enqueued (a retry replays it), or a dry run's report. */
export const deployResponse = z.union([enqueuedAnswer, dryRunAnswer]);

export const deploymentStatusResponse = z
  .object({
    requestKey: z.string().describe("the deploy body's requestKey (32 characters)"),
    status: z.enum(["queued", "submitted", "deployed", "failed"]).describe("deployed as soon as the token row exists"),
    shape: deployShapeEnum,
    chainId: z.number().int(),
    expectedAddress,
    txHash: z
      .string()
      .regex(/^0x[0-9a-f]{64}$/)
      .nullable()
      .describe("the deployment transaction, lowercase 0x-hex; null until it is sent"),
    token: tokenObject.optional().describe("only when deployed"),
    reason: z.string().optional().describe("only when failed: why"),
    createdAt: isoTime,
    updatedAt: isoTime,
  })
  .meta({ id: "DeploymentStatus", description: "Where a deployment stands: queued, submitted, deployed or failed" });
