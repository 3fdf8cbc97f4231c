// The local WebSocket-to-Postgres proxy (tests/helpers/neon-proxy.ts) against a plain TCP server standing in for
// Postgres: bytes unchanged both ways, back-pressure instead of buffering, both sides closing together, and
// nothing but its one target reachable through it.
import { afterEach, describe, expect, it } from "vitest";
import { createHash, randomBytes } from "node:crypto";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { WebSocket } from "ws";
import { type NeonProxy, startNeonProxy, TEXT_FRAME, UPSTREAM_FAILED } from "@/tests/helpers/neon-proxy";

type Target = { server: Server; port: number; sockets: Socket[]; accepted: Promise<Socket> };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A TCP server in Postgres's place; `onSocket` decides what it does with each connection. */
async function target(onSocket: (socket: Socket) => void = () => {}): Promise<Target> {
  const sockets: Socket[] = [];
  let accept!: (socket: Socket) => void;
  const accepted = new Promise<Socket>((resolve) => (accept = resolve));
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => {});
    accept(socket);
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { server, port: (server.address() as AddressInfo).port, sockets, accepted };
}

async function proxyTo(port: number, highWaterMark?: number): Promise<NeonProxy> {
  const proxy = await startNeonProxy({ target: { host: "127.0.0.1", port }, highWaterMark });
  cleanups.push(() => proxy.close());
  return proxy;
}

/** A client as the driver opens it: the proxy's URL with `?address=` naming the server. */
async function client(proxy: NeonProxy, address: string): Promise<WebSocket> {
  const ws = new WebSocket(`${proxy.url}?address=${address}`);
  cleanups.push(() => ws.terminate());
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return ws;
}

function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() })));
}

/** Resolves with everything `ws` receives once `length` bytes have come. */
function receive(ws: WebSocket, length: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let got = 0;
  return new Promise((resolve, reject) => {
    ws.on("message", (data, isBinary) => {
      if (!isBinary) return reject(new Error("a text frame from the proxy"));
      chunks.push(data as Buffer);
      got += (data as Buffer).length;
      if (got >= length) resolve(Buffer.concat(chunks));
    });
  });
}

const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const waitFor = async (check: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** Waits until `read()` has not changed for half a second: the flow has stopped where it stops. */
async function settled(read: () => number, ms = 20_000): Promise<number> {
  const until = Date.now() + ms;
  let last = read();
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const now = read();
    if (now === last || Date.now() > until) return now;
    last = now;
  }
}

describe("the neon WebSocket proxy", () => {
  it("bridges bytes unchanged both ways: many small pipelined frames and multi-megabyte ones", async () => {
    const echo = await target((socket) => socket.pipe(socket));
    const proxy = await proxyTo(echo.port);
    const ws = await client(proxy, `127.0.0.1:${echo.port}`);
    const frames = [
      ...Array.from({ length: 500 }, (_, i) => randomBytes(1 + (i % 40))),
      randomBytes(3 * 1024 * 1024),
      ...Array.from({ length: 50 }, () => randomBytes(5)),
      randomBytes(5 * 1024 * 1024 + 7),
    ];
    const sent = Buffer.concat(frames);
    const echoed = receive(ws, sent.length);
    for (const frame of frames) ws.send(frame); // no awaiting: as pipelined as the driver's startup
    const back = await echoed;
    expect(back.length).toBe(sent.length);
    expect(sha(back)).toBe(sha(sent));
    expect(proxy.open).toBe(1);
    expect(proxy.total).toBe(1);
  });

  it("pauses the server when the client stops reading, and loses nothing when it reads again", async () => {
    const total = 32 * 1024 * 1024;
    const chunk = randomBytes(64 * 1024);
    let written = 0;
    let blocked = false;
    let pump!: () => void;
    const server = await target((socket) => {
      pump = () => {
        while (written < total) {
          written += chunk.length;
          if (!socket.write(chunk)) {
            blocked = true;
            socket.once("drain", pump);
            return;
          }
        }
      };
    });
    const proxy = await proxyTo(server.port, 256 * 1024);
    const ws = await client(proxy, `127.0.0.1:${server.port}`);
    await server.accepted;
    ws.pause(); // a client that reads nothing for a while
    pump();
    await waitFor(() => blocked);
    // The server is held back by the proxy (and the kernel's socket buffers): had the proxy read on regardless,
    // it would have taken all 32 MB into memory.
    expect(await settled(() => written)).toBeLessThan(total / 2);
    expect(proxy.peakBuffered).toBeLessThan(256 * 1024 + 2 * chunk.length);
    const all = receive(ws, total);
    ws.resume();
    const got = await all;
    expect(got.length).toBe(total);
    for (let at = 0; at < total; at += chunk.length) {
      if (!got.subarray(at, at + chunk.length).equals(chunk)) throw new Error(`bytes changed at ${at}`);
    }
  });

  it("stops reading the client while the server is not reading, and delivers everything once it does", async () => {
    let serverSocket!: Socket;
    const server = await target((socket) => {
      serverSocket = socket;
      socket.pause();
    });
    const proxy = await proxyTo(server.port);
    const ws = await client(proxy, `127.0.0.1:${server.port}`);
    await server.accepted;
    const frame = randomBytes(1024 * 1024);
    const frames = 32;
    for (let i = 0; i < frames; i++) ws.send(frame);
    // Left on the client's side: the proxy read what the server's socket could take, then stopped. Had it read
    // on regardless, the client would have sent everything.
    expect(await settled(() => ws.bufferedAmount)).toBeGreaterThan((frames / 2) * frame.length);
    expect(proxy.peakBuffered).toBeLessThan(4 * frame.length);
    const chunks: Buffer[] = [];
    let got = 0;
    const all = new Promise<void>((resolve) =>
      serverSocket.on("data", (data) => {
        chunks.push(data);
        got += data.length;
        if (got >= frames * frame.length) resolve();
      }),
    );
    serverSocket.resume();
    await all;
    const received = Buffer.concat(chunks);
    expect(received.length).toBe(frames * frame.length);
    for (let i = 0; i < frames; i++) {
      if (!received.subarray(i * frame.length, (i + 1) * frame.length).equals(frame)) throw new Error(`frame ${i}`);
    }
  });

  it("when the server closes, delivers its last bytes, then closes the WebSocket", async () => {
    const server = await target((socket) => socket.end(Buffer.from("E-fatal-goodbye")));
    const proxy = await proxyTo(server.port);
    const ws = await client(proxy, `127.0.0.1:${server.port}`);
    const last = receive(ws, "E-fatal-goodbye".length);
    const close = closed(ws);
    expect((await last).toString()).toBe("E-fatal-goodbye");
    expect((await close).code).toBe(1000);
    await waitFor(() => proxy.open === 0);
  });

  it("when the client closes, writes its last bytes, then ends the server's connection", async () => {
    let ended!: (data: string) => void;
    const end = new Promise<string>((resolve) => (ended = resolve));
    const server = await target((socket) => {
      let data = "";
      socket.on("data", (d) => (data += d.toString()));
      socket.on("end", () => ended(data));
    });
    const proxy = await proxyTo(server.port);
    const ws = await client(proxy, `127.0.0.1:${server.port}`);
    ws.send(Buffer.from("X-terminate"));
    ws.close(1000);
    expect(await end).toBe("X-terminate");
    await waitFor(() => proxy.open === 0);
  });

  it("cuts the server's connection when the client vanishes without a close frame", async () => {
    const server = await target();
    const proxy = await proxyTo(server.port);
    const ws = await client(proxy, `127.0.0.1:${server.port}`);
    const socket = await server.accepted;
    const gone = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    ws.terminate();
    await gone;
    await waitFor(() => proxy.open === 0);
  });

  it("closes with 1011 when the server refuses the connection", async () => {
    const refused = await target();
    const port = refused.port;
    await new Promise<void>((resolve) => refused.server.close(() => resolve()));
    const proxy = await proxyTo(port);
    const ws = await client(proxy, `127.0.0.1:${port}`);
    const { code, reason } = await closed(ws);
    expect(code).toBe(UPSTREAM_FAILED);
    expect(reason).toMatch(/ECONNREFUSED/);
    expect(proxy.open).toBe(0);
  });

  it("closes with 1003 on a text frame: the protocol is bytes", async () => {
    const server = await target();
    const proxy = await proxyTo(server.port);
    const ws = await client(proxy, `127.0.0.1:${server.port}`);
    const close = closed(ws);
    ws.send("SELECT 1");
    expect((await close).code).toBe(TEXT_FRAME);
  });

  it("connects to its target only: another address is 403, a plain HTTP request 426", async () => {
    const server = await target();
    const proxy = await proxyTo(server.port);
    for (const address of ["10.0.0.1:5432", `127.0.0.1:${server.port + 1}`, `localhost:${server.port}`]) {
      const ws = new WebSocket(`${proxy.url}?address=${address}`);
      const status = await new Promise<number>((resolve) => {
        ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
        ws.once("open", () => resolve(101));
        ws.once("error", () => {});
      });
      ws.terminate();
      expect(status, address).toBe(403);
    }
    expect(server.sockets).toHaveLength(0);
    expect(proxy.total).toBe(0);
    const res = await fetch(proxy.url.replace(/^ws:/, "http:"));
    expect(res.status).toBe(426);
  });

  it("close() cuts every open bridge, and the port is free again", async () => {
    const server = await target();
    const proxy = await startNeonProxy({ target: { host: "127.0.0.1", port: server.port } });
    const clients = await Promise.all([1, 2, 3].map(() => client(proxy, `127.0.0.1:${server.port}`)));
    await waitFor(() => server.sockets.length === 3);
    const closes = clients.map(closed);
    await proxy.close();
    await Promise.all(closes);
    await waitFor(() => server.sockets.every((s) => s.destroyed));
    expect(proxy.open).toBe(0);
    const again = await startNeonProxy({ target: { host: "127.0.0.1", port: server.port }, port: proxy.port });
    expect(again.port).toBe(proxy.port);
    await again.close();
  });
});
