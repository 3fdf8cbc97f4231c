// POST /api/jobs/[job]: QStash delivers one outbox row ({ id }), signed; runs it and answers 2xx (settled) or 5xx (retry).
import { z } from "zod";
import { route } from "@/lib/http/route";
import { deliverJob, deliveryBody, deliveryResult } from "@/lib/platform/jobs/delivery";
import { jobs } from "@/lib/domains/jobs";

export const maxDuration = 300;

export const POST = route({
  // The Upstash-Signature over the raw body and URL is the credential: the principal carries the body it signs.
  auth: "qstash",
  rawBody: true,
  documentedBody: deliveryBody,
  summary: "Run a job delivered by QStash",
  description:
    "QStash's delivery of one outbox row (`{ id }`), verified by its Upstash-Signature over the raw body and the URL. Answers 2xx when the job is settled (done or permanently failed: QStash stops) and 503 with Retry-After when QStash should deliver it again (a transient failure, not due yet, or running elsewhere). 404 for an unknown job name or row.",
  response: deliveryResult,
  params: z.object({ job: z.string().describe("the job's name (lib/domains/jobs.ts lists them)") }),
  handler: ({ principal, params }) => deliverJob(jobs, params.job, principal.signedBody),
});
