// POST /api/jobs/[job]: QStash delivers one outbox row ({ id }), signed; runs it and answers 2xx (settled) or 5xx (retry).
import { z } from "zod";
import { route } from "@/lib/http/route";
import { verifiedDeliveryBody } from "@/lib/platform/jobs/qstash";
import { deliverJob, deliveryResult } from "@/lib/platform/jobs/delivery";
import "@/lib/domains/jobs";

export const POST = route({
  // The Upstash-Signature over the raw body and URL is the credential; rawBody keeps the bytes it signs.
  auth: "public",
  rawBody: true,
  summary: "QStash delivery of one outbox row ({ id }), verified by its Upstash-Signature; 503 asks QStash to deliver again",
  response: deliveryResult,
  params: z.object({ job: z.string() }),
  handler: async ({ request, params }) => deliverJob(params.job, await verifiedDeliveryBody(request)),
});
