// POST /api/tokens/deploy: deploy a token (request shapes 4.0.0, 0.3.1, 0.3.0); answers the expected address, a job deploys it
import { route } from "@/lib/http/route";
import { DEPLOY_QUOTA_DOC, DEPLOY_RATE_LIMIT, jsonObjectBody } from "@/lib/domains/launch/deploy/http";
import { deployResponse } from "@/lib/domains/launch/deploy/responses";
import { requestDeployment } from "@/lib/domains/launch/deploy/service";

export const POST = route({
  auth: "partner",
  body: jsonObjectBody,
  summary: "Validates, simulates and enqueues a deployment; idempotent per requestKey",
  rateLimit: DEPLOY_RATE_LIMIT,
  quota: DEPLOY_QUOTA_DOC,
  response: deployResponse,
  handler: ({ body, principal, setHeader }) => requestDeployment("deploy", body, principal, setHeader),
});
