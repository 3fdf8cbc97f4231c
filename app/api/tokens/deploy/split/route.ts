// POST /api/tokens/deploy/split: deploy a token with the creator's rewards split over groupAddresses (request shape 3.1.0)
import { route } from "@/lib/http/route";
import { DEPLOY_QUOTA_DOC, DEPLOY_RATE_LIMIT, jsonObjectBody } from "@/lib/domains/launch/deploy/http";
import { deployResponse } from "@/lib/domains/launch/deploy/responses";
import { requestDeployment } from "@/lib/domains/launch/deploy/service";

export const POST = route({
  auth: "partner",
  body: jsonObjectBody,
  summary: "Validates, simulates and enqueues a split-rewards deployment; idempotent per requestKey",
  rateLimit: DEPLOY_RATE_LIMIT,
  quota: DEPLOY_QUOTA_DOC,
  response: deployResponse,
  handler: ({ body, principal, setHeader }) => requestDeployment("split", body, principal, setHeader),
});
