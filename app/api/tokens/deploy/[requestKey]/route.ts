// GET /api/tokens/deploy/{requestKey}: where the calling partner's deployment stands (queued, submitted, deployed, failed)
import { route } from "@/lib/http/route";
import { requestKeyParams } from "@/lib/deploy/http";
import { deploymentStatusResponse } from "@/lib/deploy/responses";
import { deploymentStatus } from "@/lib/deploy/service";

export const GET = route({
  auth: "partner",
  params: requestKeyParams,
  summary: "Status of a deployment requested by this partner: queued | submitted (txHash) | deployed (token) | failed (reason)",
  response: deploymentStatusResponse,
  handler: ({ params, principal }) => deploymentStatus(principal.partnerId, params.requestKey),
});
