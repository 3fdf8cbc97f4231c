// Where a webhook may point: https to public addresses only (outside the embedded default). Checked when the
// URL is registered and again on every delivery, through the very lookup the socket connects with, so a
// name that later resolves to an internal address (DNS rebinding) is refused too.
import { BlockList, isIP, type LookupFunction } from "node:net";
import { lookup as dnsLookup } from "node:dns";
import { config } from "../config";
import { badRequest } from "../http/errors";

const blocked = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24],
  ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) blocked.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["64:ff9b::", 96], ["2001:db8::", 32], ["100::", 64],
] as const) blocked.addSubnet(net, bits, "ipv6");

/** Loopback, private, link-local, CGNAT, multicast, documentation and unspecified addresses (v4-mapped v6 too). */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], "ipv4");
  return blocked.check(address, "ipv6");
}

export function privateTargetsAllowed(): boolean {
  const c = config();
  return c.WEBHOOK_ALLOW_PRIVATE ? c.WEBHOOK_ALLOW_PRIVATE === "true" : c.embedded;
}

export class UnsafeTargetError extends Error {
  override name = "UnsafeTargetError";
}

/** A dns.lookup for http(s).request that refuses internal answers: the socket connects only to what passed. */
export const safeLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 4);
    const list = addresses as unknown as { address: string; family: number }[];
    const allowed = privateTargetsAllowed();
    if (!allowed && (!list.length || list.some((a) => isInternalAddress(a.address)))) {
      return callback(new UnsafeTargetError(`${hostname} resolves to an internal address`), "", 4);
    }
    if ((options as { all?: boolean }).all) return (callback as any)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

function resolveAll(hostname: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses.map((a) => a.address)))),
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
  if (url.protocol !== "https:" && !(allowed && url.protocol === "http:")) throw new UnsafeTargetError("the URL must use https");
  if (url.username || url.password) throw new UnsafeTargetError("credentials in the URL are not accepted");
  if (allowed) return url;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) {
    if (isInternalAddress(host)) throw new UnsafeTargetError("the URL points to an internal address");
    return url;
  }
  if (/^localhost$|\.localhost$|\.local$|\.internal$/i.test(host)) throw new UnsafeTargetError("the URL points to an internal host");
  let addresses: string[];
  try {
    addresses = await resolveAll(host);
  } catch {
    throw new UnsafeTargetError(`${host} does not resolve`);
  }
  if (!addresses.length || addresses.some(isInternalAddress)) throw new UnsafeTargetError(`${host} resolves to an internal address`);
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
