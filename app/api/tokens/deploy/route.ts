// POST /api/tokens/deploy: deploy a token (request shapes 4.0.0, 0.3.1, 0.3.0); answers the expected address, a job deploys it
import { route } from "@/lib/http/route";
import { DEPLOY_QUOTA_DOC, DEPLOY_RATE_LIMIT, jsonObjectBody } from "@/lib/domains/launch/deploy/http";
import { deployResponse } from "@/lib/domains/launch/deploy/responses";
import { requestDeployment } from "@/lib/domains/launch/deploy/service";
import { deployEndpointBody } from "@/lib/domains/launch/deploy/shapes";

export const maxDuration = 60;

export const POST = route({
  auth: "partner",
  body: jsonObjectBody,
  documentedBody: deployEndpointBody,
  summary: "Deploy a token",
  description:
    "Validates the body (request shapes 4.0.0, 0.3.1 and 0.3.0, told apart by whether `token` is an object; 0.3.0 is 0.3.1 with only its first five fields), maps it to the factory's DeploymentConfig, simulates the deployment (which predicts the token's address) and enqueues it: a job signs and broadcasts the transaction, and GET /api/tokens/deploy/{requestKey} follows it. Idempotent per (API key, requestKey): the same body again answers the first answer, another body 422 `idempotency_mismatch`. `dryRun: true` validates and simulates only. 400 lists every violation of the body; 422 when the factory's simulation reverts.",
  rateLimit: DEPLOY_RATE_LIMIT,
  quota: DEPLOY_QUOTA_DOC,
  response: deployResponse,
  handler: ({ body, principal, setHeader }) => requestDeployment("deploy", body, principal, setHeader),
});
