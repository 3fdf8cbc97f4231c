// GET /api/pretoken/pending: the caller's pretokens created in the last 7 days and not deleted
import { route } from "@/lib/http/route";
import { pendingPretokensResponse } from "@/lib/domains/launch/pretokens/responses";
import { listPendingPretokens } from "@/lib/domains/launch/pretokens/service";

export const GET = route({
  auth: "user",
  summary: "The authenticated user's pending pretokens, newest first",
  response: pendingPretokensResponse,
  handler: ({ principal }) => listPendingPretokens(principal),
});
