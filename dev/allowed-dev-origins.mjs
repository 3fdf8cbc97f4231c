// The hosts `next dev` serves its dev resources to (next.config.mjs allowedDevOrigins): loopback, this machine's
// network addresses and DEV_ALLOWED_ORIGINS. Plain JavaScript: next.config.mjs loads it without a TypeScript step.
import { networkInterfaces } from "node:os";

/** The host of `host`, `host:port` or `scheme://host[:port]/…` (Next matches hostnames only). */
function hostOf(value) {
  try {
    return new URL(value.includes("://") ? value : `http://${value}`).hostname;
  } catch {
    throw new Error(`DEV_ALLOWED_ORIGINS: "${value}" is neither a host nor an origin`);
  }
}

/**
 * Next blocks `/_next/*` (scripts, HMR, RSC requests) for any page origin but localhost, so a page opened at
 * 127.0.0.1, at the Network URL Next prints, or from a phone on the LAN would stay on "Loading…".
 * @param {string | undefined} extra DEV_ALLOWED_ORIGINS: comma-separated hosts (`*.example.test` wildcards as Next
 *   allows them), `host:port` or origins (`http://host:3000`); only the host counts, as in Next's own check
 * @param {ReturnType<typeof networkInterfaces>} interfaces
 * @returns {string[]}
 */
export function allowedDevOrigins(extra = process.env.DEV_ALLOWED_ORIGINS, interfaces = networkInterfaces()) {
  const hosts = ["localhost", "127.0.0.1", "[::1]"];
  for (const addresses of Object.values(interfaces)) {
    for (const { address, family, internal } of addresses ?? []) {
      if (internal) continue;
      // Next compares the Origin's hostname, which brackets an IPv6 address; a link-local one needs a zone id no
      // Origin header carries, so it can never match.
      if (family === "IPv4") hosts.push(address);
      else if (!address.toLowerCase().startsWith("fe80:")) hosts.push(`[${address.toLowerCase()}]`);
    }
  }
  for (const entry of (extra ?? "").split(",")) {
    const value = entry.trim().toLowerCase();
    if (value) hosts.push(hostOf(value));
  }
  return [...new Set(hosts)];
}
