// A local HTTP server standing in for a third party we cannot reach (Neynar, aggregators, JWKS, QStash).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
};
export type FakeReply = {
  status?: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  hang?: boolean;
};
export type FakeHandler = (req: FakeRequest) => FakeReply | Promise<FakeReply>;

export type FakeServer = {
  url: string;
  requests: FakeRequest[];
  /** Replace the handler mid-test (e.g. to start failing). */
  handle(handler: FakeHandler): void;
  close(): Promise<void>;
};

export async function startFakeServer(handler: FakeHandler): Promise<FakeServer> {
  let current = handler;
  const requests: FakeRequest[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://fake");
    const request = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    requests.push(request);
    const reply = await current(request);
    if (reply.hang) return; // never answers: the client's timeout must fire
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? "");
    res.writeHead(reply.status ?? 200, {
      "content-type": reply.json !== undefined ? "application/json" : "text/plain",
      ...reply.headers,
    });
    res.end(body);
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle: (h) => void (current = h),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
