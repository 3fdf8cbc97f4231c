// POST /api/pretoken/v4: create a pretoken (a pending version-4 deployment) after validating and simulating it
import { route } from "@/lib/http/route";
import { jsonObjectBody } from "@/lib/domains/launch/deploy/http";
import { createPretokenResponse } from "@/lib/domains/launch/pretokens/responses";
import { createPretoken, limitPretokenCreates } from "@/lib/domains/launch/pretokens/service";

export const POST = route({
  auth: "user",
  body: jsonObjectBody,
  summary:
    "Validates keyword, chain_id, token_settings, vault_settings and airdrop, simulates the deployment, stores it",
  response: createPretokenResponse,
  quota: "More than PRETOKEN_CREATES_PER_MINUTE creates by the same user in a minute",
  handler: async ({ body, principal, setHeader }) => {
    await limitPretokenCreates(principal, setHeader);
    return createPretoken(body, principal);
  },
});
