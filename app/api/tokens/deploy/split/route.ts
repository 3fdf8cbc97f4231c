// POST /api/tokens/deploy/split: deploy a token with the creator's rewards split over groupAddresses (request shape 3.1.0)
import { route } from "@/lib/http/route";
import { DEPLOY_QUOTA_DOC, DEPLOY_RATE_LIMIT, jsonObjectBody } from "@/lib/domains/launch/deploy/http";
import { deployResponse } from "@/lib/domains/launch/deploy/responses";
import { requestDeployment } from "@/lib/domains/launch/deploy/service";
import { deploySplitBody } from "@/lib/domains/launch/deploy/shapes";

export const maxDuration = 60;

export const POST = route({
  auth: "partner",
  body: jsonObjectBody,
  documentedBody: deploySplitBody,
  summary: "Deploy a token with split creator rewards",
  description:
    "As POST /api/tokens/deploy, for request shape 3.1.0: the creator's reward share is split over `groupAddresses` (each its own reward admin and recipient). Idempotent per (API key, requestKey); `dryRun: true` validates and simulates only.",
  rateLimit: DEPLOY_RATE_LIMIT,
  quota: DEPLOY_QUOTA_DOC,
  response: deployResponse,
  handler: ({ body, principal, setHeader }) => requestDeployment("split", body, principal, setHeader),
});
