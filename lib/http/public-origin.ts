// The origin links in answers point at: PUBLIC_BASE_URL when set (or Vercel's own URL), else the request's.
import { config } from "@/lib/core/config";

export function publicOrigin(request: Request): string {
  return (config().PUBLIC_BASE_URL ?? new URL(request.url).origin).replace(/\/+$/, "");
}
