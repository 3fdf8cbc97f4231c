// GET /api/pretoken/pending: the caller's pretokens created in the last 7 days and not deleted
import { route } from "@/lib/http/route";
import { pendingPretokensResponse } from "@/lib/domains/launch/pretokens/responses";
import { listPendingPretokens } from "@/lib/domains/launch/pretokens/service";

export const GET = route({
  auth: "user",
  summary: "List the caller's pending pretokens",
  description:
    "The signed-in user's pretokens created in the last 7 days and not deleted, newest first (at most PRETOKEN_MAX_PENDING), each with its settings and expected address.",
  response: pendingPretokensResponse,
  handler: ({ principal }) => listPendingPretokens(principal),
});
