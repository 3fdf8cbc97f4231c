// POST /api/tokens/save-deployed-token/from-ui: enqueue indexing of a UI-deployed token; with a user token, also save it attributed to the user
import { preflight, route } from "@/lib/http/route";
import { publicOrigin } from "@/lib/http/public-origin";
import { fromUiResponse } from "@/lib/domains/launch/indexer/responses";
import { fromUiBody, fromUiIpLimit, saveDeployedTokenFromUi } from "@/lib/domains/launch/indexer/service";

export const maxDuration = 60;

export const POST = route({
  auth: "optionalUser",
  body: fromUiBody,
  rateLimit: fromUiIpLimit,
  summary: "Submit a token deployed from a UI",
  description:
    "Enqueues indexing of the token from its deploying transaction (`address`, `tx_hash`, `chain_id`). With a user token the submission is also saved and attributed to the user. 30 requests a minute per IP; when the transaction holds no TokenCreated of the token, the job searches the logs by address at most 5 times a minute per IP.",
  parameterDescriptions: {
    address: "the token's contract address, 0x + 40 hex digits (any case)",
    tx_hash: "the transaction that deployed it, 0x + 64 hex digits (any case)",
    chain_id: "the chain it was deployed on, one the service indexes (a number or its decimal text), e.g. 8453",
  },
  response: fromUiResponse,
  handler: ({ body, principal, request, ip }) => saveDeployedTokenFromUi(body, principal, publicOrigin(request), ip),
});

export const OPTIONS = preflight;
