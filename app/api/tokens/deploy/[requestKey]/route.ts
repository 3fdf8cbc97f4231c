// GET /api/tokens/deploy/{requestKey}: where the calling partner's deployment stands (queued, submitted, deployed, failed)
import { route } from "@/lib/http/route";
import { requestKeyParams } from "@/lib/domains/launch/deploy/http";
import { deploymentStatusResponse } from "@/lib/domains/launch/deploy/responses";
import { deploymentStatus } from "@/lib/domains/launch/deploy/service";

export const GET = route({
  auth: "partner",
  params: requestKeyParams,
  summary: "Get a deployment's status",
  description:
    "Where a deployment requested by the calling partner stands: `queued` (txHash once signed), `submitted` (broadcast), `deployed` (with the token) or `failed` (with the reason). Another partner's requestKey answers 404.",
  response: deploymentStatusResponse,
  handler: ({ params, principal }) => deploymentStatus(principal.partnerId, params.requestKey),
});
