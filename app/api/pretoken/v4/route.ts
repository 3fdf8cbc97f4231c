// POST /api/pretoken/v4: create a pretoken (a pending version-4 deployment) after validating and simulating it
import { route } from "@/lib/http/route";
import { jsonObjectBody } from "@/lib/domains/launch/deploy/http";
import { createPretokenResponse } from "@/lib/domains/launch/pretokens/responses";
import { pretokenBody } from "@/lib/domains/launch/pretokens/schemas";
import { createPretoken, limitPretokenCreates } from "@/lib/domains/launch/pretokens/service";

export const POST = route({
  auth: "user",
  body: jsonObjectBody,
  documentedBody: pretokenBody,
  summary: "Create a pretoken",
  description:
    "Stores a pending version-4 token configuration for the signed-in user: keyword, chain, token settings, and optionally a vault and an airdrop. Every violation of the body is listed in one 400; the deployment is then simulated on chain (422 when the factory rejects it, naming the error) and stored with its expected address. 409 when the user already has PRETOKEN_MAX_PENDING pending pretokens.",
  response: createPretokenResponse,
  quota: "More than PRETOKEN_CREATES_PER_MINUTE creates by the same user in a minute",
  handler: async ({ body, principal, setHeader }) => {
    await limitPretokenCreates(principal, setHeader);
    return createPretoken(body, principal);
  },
});
