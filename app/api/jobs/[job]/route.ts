// POST /api/jobs/[job]: QStash delivers one outbox row ({ id }), signed; runs it and answers 2xx (settled) or 5xx (retry).
import { z } from "zod";
import { route } from "@/lib/http/route";
import { deliverJob, deliveryResult } from "@/lib/platform/jobs/delivery";
import "@/lib/domains/jobs";

export const POST = route({
  // The Upstash-Signature over the raw body and URL is the credential: the principal carries the body it signs.
  auth: "qstash",
  rawBody: true,
  summary:
    "QStash delivery of one outbox row ({ id }), verified by its Upstash-Signature; 503 asks QStash to deliver again",
  response: deliveryResult,
  params: z.object({ job: z.string() }),
  handler: ({ principal, params }) => deliverJob(params.job, principal.signedBody),
});
