// POST /api/tokens/save-deployed-token/from-ui: enqueue indexing of a UI-deployed token; with a user token, also save it attributed to the user
import { preflight, route } from "@/lib/http/route";
import { fromUiResponse } from "@/lib/domains/launch/indexer/responses";
import { fromUiBody, fromUiIpLimit, saveDeployedTokenFromUi } from "@/lib/domains/launch/indexer/service";

export const POST = route({
  auth: "optionalUser",
  body: fromUiBody,
  rateLimit: fromUiIpLimit,
  summary: "Enqueues indexing of { address, tx_hash, chain_id }; a signed-in user's submission is saved and attributed",
  response: fromUiResponse,
  handler: ({ body, principal }) => saveDeployedTokenFromUi(body, principal),
});

export const OPTIONS = preflight;
