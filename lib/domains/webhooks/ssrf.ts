// Where a webhook may point: https to public addresses only (outside the embedded default). Checked when the
// URL is registered and again on every delivery, through the very lookup the socket connects with, so a
// name that later resolves to an internal address (DNS rebinding) is refused too.
import { isIP, type LookupFunction } from "node:net";
import { lookup as dnsLookup } from "node:dns";
import ipaddr from "ipaddr.js";
import { config } from "@/lib/core/config";
import { badRequest } from "@/lib/core/errors";

type EmbeddedForm =
  | "ipv4Mapped"
  | "ipv4Translated"
  | "ipv4Compatible"
  | "nat64"
  | "6to4"
  | "teredoServer"
  | "teredoClient";
type EmbeddedIPv4 = { form: EmbeddedForm; address: string; range: string };
/** ipaddr.js's range name (or ours: ipv4Compatible, outsideGlobalUnicast, invalid) and the IPv4s it carries. */
export type AddressClass = { range: string; embedded: EmbeddedIPv4[] };

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

function ipv4Of(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** Where each transition form keeps its IPv4 (RFC 4291, 6052, 3056, 4380; Teredo's client is stored inverted). */
function embeddedIPv4s(v6: ipaddr.IPv6, range: string): [EmbeddedForm, ipaddr.IPv4][] {
  const p = v6.parts;
  if (range === "ipv4Mapped") return [["ipv4Mapped", ipv4Of(p[6], p[7])]];
  if (range === "rfc6145") return [["ipv4Translated", ipv4Of(p[6], p[7])]];
  if (range === "rfc6052" && v6.match(NAT64_WELL_KNOWN)) return [["nat64", ipv4Of(p[6], p[7])]];
  if (range === "6to4") return [["6to4", ipv4Of(p[1], p[2])]];
  if (range === "teredo")
    return [
      ["teredoServer", ipv4Of(p[2], p[3])],
      ["teredoClient", ipv4Of(p[6] ^ 0xffff, p[7] ^ 0xffff)],
    ];
  if (range === "unicast" && p.slice(0, 6).every((part) => part === 0)) return [["ipv4Compatible", ipv4Of(p[6], p[7])]];
  return [];
}

/** ipaddr.js reads "::a.b.c.d" as the mapped "::ffff:a.b.c.d"; in hex it reads the address the socket would reach. */
function dottedTailInHex(v6: string): string {
  return v6.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)(?=%|$)/, (_, a, b, c, d) => {
    const group = (high: string, low: string) => ((Number(high) << 8) | Number(low)).toString(16);
    return `${group(a, b)}:${group(c, d)}`;
  });
}

export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (!family) return { range: "invalid", embedded: [] };
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = family === 4 ? ipaddr.IPv4.parse(address) : ipaddr.IPv6.parse(dottedTailInHex(address));
  } catch {
    return { range: "invalid", embedded: [] };
  }
  if (parsed.kind() === "ipv4") return { range: parsed.range(), embedded: [] };
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  const embedded = embeddedIPv4s(v6, range).map(([form, v4]) => ({ form, address: v4.toString(), range: v4.range() }));
  // A mapped address is the IPv4 itself to the socket; the other forms are routes through relays or
  // translators (or, IPv4-compatible, deprecated and routed nowhere), never a plain public destination.
  if (range === "ipv4Mapped") return { range: embedded[0].range, embedded };
  if (embedded[0]?.form === "ipv4Compatible") return { range: "ipv4Compatible", embedded };
  if (range === "unicast" && !v6.match(GLOBAL_UNICAST_V6)) return { range: "outsideGlobalUnicast", embedded };
  return { range, embedded };
}

/**
 * Only globally routable unicast passes, and an IPv4 carried inside an IPv6 address must pass too: the check
 * is independent of which transition forms the library's range table happens to name.
 */
export function isInternalAddress(address: string): boolean {
  const { range, embedded } = classifyAddress(address);
  return range !== "unicast" || embedded.some((e) => e.range !== "unicast");
}

/** What makes the first internal one of these addresses internal (for the refusal), or null when all are public. */
function internalKind(addresses: string[]): string | null {
  if (!addresses.length) return "no address";
  const found = addresses.find(isInternalAddress);
  if (!found) return null;
  const { range, embedded } = classifyAddress(found);
  const carried = embedded.map((e) => `${e.range} ${e.address}`).join(", ");
  return carried ? `${range}, carrying ${carried}` : range;
}

export function privateTargetsAllowed(): boolean {
  const c = config();
  return c.WEBHOOK_ALLOW_PRIVATE ?? c.embedded;
}

export class UnsafeTargetError extends Error {
  override name = "UnsafeTargetError";
}

/** A dns.lookup for http(s).request that refuses internal answers: the socket connects only to what passed. */
export const safeLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 4);
    const list = addresses as unknown as { address: string; family: number }[];
    const refused = privateTargetsAllowed() ? null : internalKind(list.map((a) => a.address));
    if (refused)
      return callback(new UnsafeTargetError(`${hostname} resolves to an internal address (${refused})`), "", 4);
    if ((options as { all?: boolean }).all) return (callback as any)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

function resolveAll(hostname: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );
}

/** Throws UnsafeTargetError unless the URL may receive deliveries now (scheme, literal host, DNS answers). */
export async function assertSafeTarget(raw: string): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeTargetError("not a URL");
  }
  const allowed = privateTargetsAllowed();
  if (url.protocol !== "https:" && !(allowed && url.protocol === "http:"))
    throw new UnsafeTargetError("the URL must use https");
  if (url.username || url.password) throw new UnsafeTargetError("credentials in the URL are not accepted");
  if (allowed) return url;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    const refused = internalKind([host]);
    if (refused) throw new UnsafeTargetError(`the URL points to an internal address (${refused})`);
    return url;
  }
  if (/^localhost$|\.localhost$|\.local$|\.internal$/i.test(host))
    throw new UnsafeTargetError("the URL points to an internal host");
  let addresses: string[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw new UnsafeTargetError(`${host} does not resolve`);
  }
  const refused = internalKind(addresses);
  if (refused) throw new UnsafeTargetError(`${host} resolves to an internal address (${refused})`);
  return url;
}

/** Registration: the same check, answered as a 400 naming the field. */
export async function validateTargetUrl(raw: string): Promise<string> {
  try {
    return (await assertSafeTarget(raw)).toString();
  } catch (error) {
    if (error instanceof UnsafeTargetError) throw badRequest(`url: ${error.message}`);
    throw error;
  }
}
