// GET /api/tokens/stream: newly indexed tokens as Server-Sent Events, resumable by Last-Event-ID or cursor
import { unauthorized } from "@/lib/core/errors";
import { authorizePartner } from "@/lib/http/auth/partner-keys";
import { cachePolicy } from "@/lib/http/cache";
import { preflight, route } from "@/lib/http/route";
import { ipSubject } from "@/lib/platform/kv/rate-limit";
import { streamEventsSchema, streamQuery } from "@/lib/domains/stream/schemas";
import { openTokenStream } from "@/lib/domains/stream/service";

/** Vercel's limit for the function; the stream ends itself before it (STREAM_MAX_SECONDS). */
export const maxDuration = 300;

export const GET = route({
  auth: "public",
  summary: "Stream newly indexed tokens",
  description:
    "Server-Sent Events: one `token` event per newly indexed token, its data the token object of GET /api/tokens (with `includeUser` and `includeMarket` as there), its `id` a cursor. Filters: `chainId`, `fid`/`fids`, `msgSender`, `pair`, `type`. Reconnecting with `Last-Event-ID` (or `cursor`) resumes after that event with nothing missed or repeated, on any instance; a cursor older than the kept events (STREAM_RETENTION_HOURS) gets a `gap` event naming the GET /api/tokens page to read. A new stream starts with `ready`; a `: keepalive` comment (carrying the current id) comes every STREAM_HEARTBEAT_SECONDS; the stream sends `end` and closes before the function's time limit. An `x-api-key` counts the stream against the key instead of the client address. See docs/streaming.md.",
  quota:
    "More open streams than STREAM_MAX_PER_CLIENT per client address, STREAM_MAX_PER_KEY per API key or STREAM_MAX_CONNECTIONS per instance",
  query: streamQuery,
  response: streamEventsSchema,
  contentType: "text/event-stream",
  headers: { "X-Accel-Buffering": "no" },
  cache: cachePolicy.eventStream,
  handler: async ({ request, query, ip }) => {
    const key = request.headers.get("x-api-key")?.trim();
    // As on every partner route: the key's scope (read), its requests a minute, and its usage (one request at open).
    const partner = key ? await authorizePartner(request, key) : null;
    if (key && !partner) throw unauthorized("unknown, revoked or expired API key");
    const holder = partner
      ? { kind: "key" as const, partnerId: partner.id }
      : { kind: "address" as const, subject: ipSubject(ip) };
    return openTokenStream(query, holder, request.headers.get("last-event-id"));
  },
});
export const OPTIONS = preflight;
