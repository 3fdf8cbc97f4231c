// The "qstash" auth mode: a job delivery is signed by QStash (Upstash-Signature, a JWT over the raw body and URL).
import { Receiver } from "@upstash/qstash";
import { decodeJwt } from "jose";
import { readCappedText } from "@/lib/core/body";
import { config } from "@/lib/core/config";
import { unauthorized } from "@/lib/core/errors";

/** A delivery is `{ id }` of one outbox row; anything larger is not one of ours. */
export const MAX_DELIVERY_BYTES = 64 * 1024;

/**
 * Checks `Upstash-Signature` (current key, then next) over the raw body and the full public URL, and
 * returns the body. Fails closed: no keys, no PUBLIC_BASE_URL, no header, no exp or any mismatch is a 401.
 */
export async function verifiedDeliveryBody(request: Request): Promise<string> {
  const { QSTASH_CURRENT_SIGNING_KEY: current, QSTASH_NEXT_SIGNING_KEY: next, PUBLIC_BASE_URL: base } = config();
  if (!current && !next) throw unauthorized("job deliveries are not accepted: QStash signing keys are not configured");
  if (!base) throw unauthorized("job deliveries are not accepted: PUBLIC_BASE_URL is not configured");
  const signature = request.headers.get("upstash-signature");
  if (!signature) throw unauthorized("missing Upstash-Signature header");
  const body = await readCappedText(request, MAX_DELIVERY_BYTES);
  const { pathname, search } = new URL(request.url);
  const url = `${base.replace(/\/+$/, "")}${pathname}${search}`;
  const receiver = new Receiver({
    currentSigningKey: current ?? next,
    nextSigningKey: next ?? current,
    devMode: false,
  });
  const valid = await receiver.verify({ signature, body, url, clockTolerance: 5 }).catch(() => false);
  if (!valid) throw unauthorized("invalid Upstash-Signature");
  // The Receiver checks exp only when present, so a signature without one would replay forever; QStash's have one.
  if (typeof decodeJwt(signature).exp !== "number") throw unauthorized("Upstash-Signature without an expiry");
  return body;
}
