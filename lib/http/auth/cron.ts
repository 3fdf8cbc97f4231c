// The "cron" auth mode: Vercel's cron requests carry `Authorization: Bearer <CRON_SECRET>`.
import { timingSafeEqual } from "node:crypto";
import { config } from "@/lib/core/config";
import { unauthorized } from "@/lib/core/errors";

/** Vercel sends `Authorization: Bearer <CRON_SECRET>`. Without a configured secret nothing gets in. */
export function verifyCronRequest(request: Request): void {
  const secret = config().CRON_SECRET;
  if (!secret) throw unauthorized("cron routes are disabled: CRON_SECRET is not configured");
  const given = Buffer.from(request.headers.get("authorization") ?? "");
  const expected = Buffer.from(`Bearer ${secret}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw unauthorized("invalid cron credentials");
}
