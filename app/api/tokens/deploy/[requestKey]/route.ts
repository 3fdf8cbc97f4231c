// GET /api/tokens/deploy/{requestKey}: where the calling partner's deployment stands (queued, submitted, deployed, failed)
import { route } from "@/lib/http/route";
import { requestKeyParams } from "@/lib/domains/launch/deploy/http";
import { deploymentStatusResponse } from "@/lib/domains/launch/deploy/responses";
import { deploymentStatus } from "@/lib/domains/launch/deploy/service";

export const GET = route({
  auth: "partner",
  params: requestKeyParams,
  summary:
    "Status of a deployment requested by this partner: queued | submitted (txHash) | deployed (token) | failed (reason)",
  response: deploymentStatusResponse,
  handler: ({ params, principal }) => deploymentStatus(principal.partnerId, params.requestKey),
});
