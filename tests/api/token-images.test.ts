// GET /images/tokens/{chainId}/{address}: the explorer's picture proxy. The service fetches a token's img_url so
// the viewer's browser never contacts that host; it refuses internal addresses (literal or in any DNS answer) and
// other schemes without opening a connection, and serves only a bounded raster image that can run nothing.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { GET } from "@/app/images/tokens/[chainId]/[address]/route";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { blockToken } from "@/lib/domains/tokens/service";
import { fetchImage, IMAGE_PROXY_LIMITS, ImageRefused } from "@/lib/http/image-proxy";
import { insertToken } from "./creators/fixtures";

/** Names under .image.test answer from here; others resolve for real. */
const answers = vi.hoisted(() => new Map<string, string[]>());
vi.mock("node:dns", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns")>();
  const lookup = (hostname: string, options: any, callback: any) => {
    const list = answers.get(hostname);
    if (!list) return real.lookup(hostname, options, callback);
    const found = list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    if (options?.all) return callback(null, found);
    callback(null, found[0].address, found[0].family);
  };
  return { ...real, default: { ...real, lookup }, lookup };
});

// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

type Seen = { path: string; headers: http.IncomingHttpHeaders };
let server: http.Server;
let origin: string;
let port: number;
const seen: Seen[] = [];
let connections = 0;

/** The picture host: each path a behaviour. */
function host(req: http.IncomingMessage, res: http.ServerResponse) {
  const path = req.url ?? "/";
  seen.push({ path, headers: req.headers });
  const redirects = /^\/hop\/(\d+)$/.exec(path);
  if (redirects) {
    const left = Number(redirects[1]);
    res.writeHead(302, { location: left > 0 ? `/hop/${left - 1}` : "/pic.png" }).end();
  } else if (path === "/pic.png") res.writeHead(200, { "content-type": "image/png" }).end(PNG);
  else if (path === "/page.html") res.writeHead(200, { "content-type": "text/html" }).end("<script>alert(1)</script>");
  else if (path === "/pic.svg") res.writeHead(200, { "content-type": "image/svg+xml" }).end("<svg/>");
  else if (path === "/declared-large.png")
    res.writeHead(200, { "content-type": "image/png", "content-length": String(6 * 1024 * 1024) }).end();
  else if (path === "/streamed-large.png") {
    res.writeHead(200, { "content-type": "image/png" });
    const chunk = Buffer.alloc(64 * 1024);
    let sent = 0;
    const more = () => {
      while (sent < 6 * 1024 * 1024 && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return res.once("drain", more);
      }
      res.end();
    };
    more();
  } else if (path === "/to-script") res.writeHead(302, { location: "javascript:alert(1)" }).end();
  else if (path === "/to-file") res.writeHead(302, { location: "file:///etc/passwd" }).end();
  else if (path === "/never")
    return; // no answer at all
  else res.writeHead(500).end();
}

beforeAll(async () => {
  server = http.createServer(host);
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  delete process.env.IMAGE_PROXY_ALLOW_PRIVATE;
  resetConfig();
});
beforeEach(() => {
  seen.length = 0;
  connections = 0;
  answers.clear();
});
afterEach(() => {
  delete process.env.IMAGE_PROXY_ALLOW_PRIVATE;
  resetConfig();
});

const allowPrivate = (value: "true" | "false") => {
  process.env.IMAGE_PROXY_ALLOW_PRIVATE = value;
  resetConfig();
};

let fid = 0;
async function tokenWithPicture(imgUrl: string | null) {
  fid += 1;
  const row = await insertToken({ msgSender: `0x${fid.toString(16).padStart(40, "0")}`, chainId: 8453 });
  await db().updateTable("tokens").set({ img_url: imgUrl }).where("id", "=", row.id).execute();
  return row;
}

const picture = (chainId: string, address: string) =>
  GET(new Request(`http://localhost/images/tokens/${chainId}/${address}`), {
    params: Promise.resolve({ chainId, address }),
  });

function expectServedSafely(res: Response) {
  expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
}

describe("GET /images/tokens/{chainId}/{address}", () => {
  it("serves the token's picture, fetched by the service with none of the viewer's headers", async () => {
    allowPrivate("true");
    const token = await tokenWithPicture(`${origin}/pic.png`);
    const res = await picture("8453", token.contract_address.toUpperCase().replace("0X", "0x"));
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);
    expectServedSafely(res);
    expect(seen).toHaveLength(1);
    expect(seen[0].headers["user-agent"]).toBe("token-launch-images/1");
    expect(seen[0].headers.cookie).toBeUndefined();
    expect(seen[0].headers.referer).toBeUndefined();
  });

  it("answers 404 (the page shows its placeholder) for no picture, an unknown or blocked token, a bad path", async () => {
    allowPrivate("true");
    const none = await tokenWithPicture(null);
    const blocked = await tokenWithPicture(`${origin}/pic.png`);
    await blockToken(blocked.contract_address, 8453, "test");
    for (const [chainId, address] of [
      ["8453", none.contract_address],
      ["8453", blocked.contract_address],
      ["1", blocked.contract_address],
      ["8453", `0x${"ee".repeat(20)}`],
      ["8453", "0x12"],
      ["x", none.contract_address],
      ["99999999999", none.contract_address],
    ]) {
      const res = await picture(chainId, address);
      expect(res.status, `${chainId} ${address}`).toBe(404);
      expectServedSafely(res);
    }
    expect(seen).toHaveLength(0);
  });

  it("never connects to an internal address or fetches another scheme", async () => {
    allowPrivate("false");
    answers.set("mixed.image.test", ["93.184.215.14", "10.0.0.5"]);
    answers.set("metadata.image.test", ["169.254.169.254"]);
    answers.set("mapped.image.test", ["::ffff:127.0.0.1"]);
    const refused = [
      `${origin}/pic.png`, // http
      `https://127.0.0.1:${port}/pic.png`,
      `https://localhost:${port}/pic.png`,
      `https://[::ffff:127.0.0.1]:${port}/pic.png`,
      `https://[::1]:${port}/pic.png`,
      "https://10.1.2.3/pic.png",
      "https://169.254.169.254/latest/meta-data/",
      "https://mixed.image.test/pic.png",
      "https://metadata.image.test/pic.png",
      `https://mapped.image.test:${port}/pic.png`,
      "javascript:alert(1)",
      "data:image/png;base64,iVBORw0KGgo=",
      "file:///etc/passwd",
      "ftp://example.com/pic.png",
      "https://user:secret@example.com/pic.png",
      "/placeholders/0xab.svg",
    ];
    for (const url of refused) {
      await expect(fetchImage(url), url).rejects.toBeInstanceOf(ImageRefused);
      const token = await tokenWithPicture(url);
      const res = await picture("8453", token.contract_address);
      expect(res.status, url).toBe(404);
      expectServedSafely(res);
    }
    expect(connections).toBe(0);
  });

  it("serves raster images only, within the size limit, after at most three redirects", async () => {
    allowPrivate("true");
    expect((await fetchImage(`${origin}/hop/2`)).body).toEqual(PNG); // three redirects
    for (const path of [
      "/hop/3", // four redirects
      "/page.html",
      "/pic.svg",
      "/declared-large.png",
      "/streamed-large.png",
      "/to-script",
      "/to-file",
      "/missing",
    ]) {
      await expect(fetchImage(`${origin}${path}`), path).rejects.toThrow();
      const token = await tokenWithPicture(`${origin}${path}`);
      const res = await picture("8453", token.contract_address);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toBeNull();
    }
    expect(IMAGE_PROXY_LIMITS.maxBytes).toBe(5 * 1024 * 1024);
  });

  it("gives up on a host that does not answer within the time limit", async () => {
    allowPrivate("true");
    const token = await tokenWithPicture(`${origin}/never`);
    const started = Date.now();
    const res = await picture("8453", token.contract_address);
    expect(res.status).toBe(404);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(IMAGE_PROXY_LIMITS.timeoutMs - 100);
    expect(took).toBeLessThan(IMAGE_PROXY_LIMITS.timeoutMs + 3_000);
  });
});
