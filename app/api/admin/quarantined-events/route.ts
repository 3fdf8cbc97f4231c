// GET /api/admin/quarantined-events: chain events the indexer set aside (undecodable, or a row refused), for operators
import { route } from "@/lib/http/route";
import { cachePolicy } from "@/lib/http/cache";
import {
  listQuarantinedTokenEvents,
  quarantinedEventsQuery,
  quarantinedEventsResponse,
} from "@/lib/domains/launch/indexer/quarantine";

export const GET = route({
  auth: "admin",
  summary: "List quarantined chain events",
  description:
    "Events the indexer could not decode or store, in id order: where each is on chain, why it was set aside, its first and last error, and its attempts. The indexer moved past each one. Open ones only unless `all=true`. `npm run tokens -- quarantine retry` tries them again after a fix. Admin session or admin user token.",
  query: quarantinedEventsQuery,
  response: quarantinedEventsResponse,
  cache: cachePolicy.none,
  handler: ({ query }) => listQuarantinedTokenEvents(query),
});
