// POST /api/tokens/deploy/v4: the platform's alias of POST /api/tokens/deploy (same handler, same answers)
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
  summary: "Deploy a token (alias)",
  description:
    "The same endpoint as POST /api/tokens/deploy under the path the platform's API also serves it at: the same bodies, idempotency (a requestKey used on either path is the same request), limits and answers.",
  rateLimit: DEPLOY_RATE_LIMIT,
  quota: DEPLOY_QUOTA_DOC,
  response: deployResponse,
  handler: ({ body, principal, setHeader }) => requestDeployment("deploy", body, principal, setHeader),
});
