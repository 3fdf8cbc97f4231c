// The explorer's picture proxy: a token's img_url is fetched here, not by the viewer's browser, so whoever chose
// that URL never learns a viewer's address or browser. Bounded: https to public addresses only (every DNS answer
// checked, and the socket connects only to an address that passed), a few redirects, a time limit, a size limit,
// raster image types only. What it serves can run nothing (CSP default-src 'none', nosniff).
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { config } from "@/lib/core/config";
import { log } from "@/lib/core/log";
import { isInternalAddress } from "@/lib/domains/webhooks/ssrf";

export const IMAGE_PROXY_LIMITS = {
  /** Bytes of one picture; a longer answer is dropped. */
  maxBytes: 5 * 1024 * 1024,
  /** From the first connection to the last byte, redirects included. */
  timeoutMs: 5_000,
  maxRedirects: 3,
  /** Fetches in flight in this process; more are answered 503 (the page shows its placeholder). */
  maxInFlight: 32,
} as const;

/** Raster types only: an SVG is a document that can hold scripts and links. */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"]);

/** Headers of every answer: the bytes are a picture and nothing else, never run or framed. */
const SERVED_HEADERS = {
  "content-security-policy": "default-src 'none'; sandbox",
  "x-content-type-options": "nosniff",
  "cross-origin-resource-policy": "same-origin",
  "referrer-policy": "no-referrer",
};

export class ImageRefused extends Error {
  override name = "ImageRefused";
}

export function privateImageHostsAllowed(): boolean {
  const c = config();
  return c.IMAGE_PROXY_ALLOW_PRIVATE ?? c.embedded;
}

/** A dns.lookup that refuses a name with any internal answer: the socket connects only to what passed. */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 4);
    const list = addresses as unknown as LookupAddress[];
    if (!list.length || list.some((a) => isInternalAddress(a.address)))
      return callback(new ImageRefused(`${hostname} resolves to an internal address`), "", 4);
    if ((options as { all?: boolean }).all) return (callback as any)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

/** The URL if it may be fetched: https (http too when private hosts are allowed), no credentials, no internal literal. */
export function checkImageUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new ImageRefused("not a URL");
  }
  const allowed = privateImageHostsAllowed();
  if (url.protocol !== "https:" && !(allowed && url.protocol === "http:"))
    throw new ImageRefused(`${url.protocol} is not fetched`);
  if (url.username || url.password) throw new ImageRefused("credentials in the URL");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  // An address literal is connected to without a lookup: check it here.
  if (!allowed && isIP(host) && isInternalAddress(host)) throw new ImageRefused("an internal address");
  return url;
}

function get(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      headers: {
        accept: "image/avif,image/webp,image/png,image/jpeg,image/gif",
        "accept-encoding": "identity",
        "user-agent": "token-launch-images/1",
      },
      lookup: privateImageHostsAllowed() ? undefined : publicLookup,
      signal,
    });
    req.on("response", resolve).on("error", reject).end();
  });
}

async function readBounded(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers["content-length"]);
  if (declared > maxBytes) throw new ImageRefused(`${declared} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      res.destroy();
      throw new ImageRefused(`more than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Fetches a picture within IMAGE_PROXY_LIMITS; throws ImageRefused (or a network error) otherwise. */
export async function fetchImage(raw: string): Promise<{ type: string; body: Buffer }> {
  const signal = AbortSignal.timeout(IMAGE_PROXY_LIMITS.timeoutMs);
  let url = checkImageUrl(raw);
  for (let hop = 0; ; hop++) {
    const res = await get(url, signal);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      if (hop >= IMAGE_PROXY_LIMITS.maxRedirects) throw new ImageRefused("too many redirects");
      url = checkImageUrl(res.headers.location, url);
      continue;
    }
    if (status !== 200) {
      res.resume();
      throw new ImageRefused(`answered ${status}`);
    }
    const type = (res.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    if (!IMAGE_TYPES.has(type)) {
      res.resume();
      throw new ImageRefused(`content type ${type || "none"}`);
    }
    return { type, body: await readBounded(res, IMAGE_PROXY_LIMITS.maxBytes) };
  }
}

let inFlight = 0;

/** No picture: the page shows its generated placeholder. Cached a while, so a broken host is not asked on every view. */
const noPicture = (status: number, cacheControl: string) =>
  new Response(null, { status, headers: { ...SERVED_HEADERS, "cache-control": cacheControl } });

export const refusedImage = () => noPicture(404, "public, max-age=600");

/** The picture route's answer: `stored` reads the img_url (null: the token has none, or is unknown or blocked). */
export async function proxiedImage(stored: () => Promise<string | null>): Promise<Response> {
  if (inFlight >= IMAGE_PROXY_LIMITS.maxInFlight) return noPicture(503, "no-store");
  inFlight++;
  try {
    const raw = await stored().catch((error) => {
      log.warn("picture lookup failed", { error });
      return undefined;
    });
    if (raw === undefined) return noPicture(503, "no-store");
    if (!raw) return refusedImage();
    const { type, body } = await fetchImage(raw);
    return new Response(new Uint8Array(body), {
      headers: {
        ...SERVED_HEADERS,
        "content-type": type,
        "content-length": String(body.length),
        "cache-control": "public, max-age=86400, s-maxage=86400",
      },
    });
  } catch (error) {
    log.debug("picture not served", { reason: (error as Error).message });
    return refusedImage();
  } finally {
    inFlight--;
  }
}
