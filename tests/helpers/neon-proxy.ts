// A local WebSocket-to-Postgres proxy, the stand-in for Neon's: the `neon` driver (@neondatabase/serverless) speaks
// the Postgres protocol in binary WebSocket frames, and each WebSocket is bridged to one TCP connection.
//
// Why not Neon's `wsproxy`: it is a Go program, not on npm. This one does what the driver needs of it: every
// binary frame's bytes are written to the TCP socket as they come and every TCP chunk is sent as one binary frame
// (no framing of its own, no Nagle delay), back-pressure both ways (a slow side pauses the other rather than
// buffering without bound), and the two sides close together. It connects only to its one target: the driver
// names the server in `?address=host:port` (the form `wsProxy` builds), and any other address is refused, so it
// is never an open relay. Run it by hand for `DATABASE_DRIVER=neon` against a local server (docs/testing.md):
//   npx tsx tests/helpers/neon-proxy.ts [port] [postgres host:port]
import { createServer, type IncomingMessage } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { pathToFileURL } from "node:url";
import { WebSocket, WebSocketServer } from "ws";

export type NeonProxyOptions = {
  /** The Postgres server every connection is bridged to. Default 127.0.0.1:5432. */
  target?: { host: string; port: number };
  /** Where the proxy listens. Default 127.0.0.1, any free port. */
  host?: string;
  port?: number;
  /** Bytes queued on the WebSocket before the TCP side is paused. */
  highWaterMark?: number;
};

export type NeonProxy = {
  /** What NEON_WS_PROXY takes: ws://host:port/v2 (the driver adds `?address=`). */
  url: string;
  port: number;
  /** Bridges open now. */
  readonly open: number;
  /** Bridges opened since start. */
  readonly total: number;
  /** The most bytes one bridge has held in its write queues at once (either way): back-pressure keeps it bounded. */
  readonly peakBuffered: number;
  /** Refuses new connections and cuts the open ones. */
  close(): Promise<void>;
};

/** The close code sent when the Postgres side fails (refused, reset): the driver reports the connection lost. */
export const UPSTREAM_FAILED = 1011;
/** The close code for a text frame: the Postgres protocol is bytes, and a text frame means a confused client. */
export const TEXT_FRAME = 1003;

/** The `?address=` the driver sends names the target, or nothing (then the target is meant). */
function addressAllowed(req: IncomingMessage, target: { host: string; port: number }): boolean {
  const address = new URL(req.url ?? "/", "http://proxy").searchParams.get("address");
  return address === null || address === `${target.host}:${target.port}`;
}

function refuse(socket: Duplex, status: string) {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

export async function startNeonProxy(options: NeonProxyOptions = {}): Promise<NeonProxy> {
  const target = options.target ?? { host: "127.0.0.1", port: 5432 };
  const highWaterMark = options.highWaterMark ?? 1024 * 1024;
  const bridges = new Set<{ ws: WebSocket; tcp: Socket }>();
  let total = 0;
  let peakBuffered = 0;

  // No compression: the driver does not ask for it, and it would only cost CPU on a loopback.
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const server = createServer((_req, res) => {
    res.writeHead(426, { "content-type": "text/plain", upgrade: "websocket" });
    res.end("a WebSocket-to-Postgres proxy: connect with a WebSocket\n");
  });
  const upgrading = new Set<Duplex>();

  server.on("upgrade", (req, socket, head) => {
    if (!addressAllowed(req, target)) return refuse(socket, "403 Forbidden");
    upgrading.add(socket);
    socket.once("close", () => upgrading.delete(socket));
    wss.handleUpgrade(req, socket, head, (ws) => {
      upgrading.delete(socket);
      bridge(ws);
    });
  });

  function bridge(ws: WebSocket) {
    total++;
    // Bytes the client sends before the TCP connection is up (the driver pipelines its startup message) are
    // queued by the socket and written once it connects.
    const tcp = connect({ host: target.host, port: target.port });
    tcp.setNoDelay(true);
    const pair = { ws, tcp };
    bridges.add(pair);
    let done = false;

    const finish = (code: number, reason: string) => {
      if (done) return;
      done = true;
      bridges.delete(pair);
      // Close frames queue behind data frames already sent, so whatever Postgres said last (an error, a
      // termination notice) reaches the client before the close.
      if (ws.readyState === WebSocket.OPEN) ws.close(code, reason.slice(0, 120));
      else if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      // end(), not destroy(): the client's last bytes (its Terminate message) still reach the server. A server
      // that never closes its side is cut after a second.
      if (!tcp.destroyed) {
        tcp.end();
        setTimeout(() => tcp.destroy(), 1000).unref();
      }
    };

    ws.on("message", (data, isBinary) => {
      if (done) return;
      if (!isBinary) return finish(TEXT_FRAME, "binary frames only");
      // A Buffer: binaryType is the default, nodebuffer, which joins a fragmented message into one.
      const flowing = tcp.write(data as Buffer);
      peakBuffered = Math.max(peakBuffered, tcp.writableLength);
      // Frames already read when it paused still arrive: one drain listener is enough for all of them.
      if (!flowing && !ws.isPaused) {
        ws.pause();
        tcp.once("drain", () => ws.resume());
      }
    });
    tcp.on("data", (chunk) => {
      if (done || ws.readyState !== WebSocket.OPEN) return;
      ws.send(chunk, { binary: true }, () => {
        if (tcp.isPaused() && ws.bufferedAmount < highWaterMark) tcp.resume();
      });
      peakBuffered = Math.max(peakBuffered, ws.bufferedAmount);
      if (ws.bufferedAmount >= highWaterMark) tcp.pause();
    });

    tcp.on("end", () => finish(1000, "server closed the connection"));
    tcp.on("close", () => finish(1000, "server closed the connection"));
    tcp.on("error", (error) => finish(UPSTREAM_FAILED, `upstream: ${error.message}`));
    ws.on("close", () => finish(1000, "client closed"));
    ws.on("error", () => {
      // A broken client connection: nobody is left to read the server's answer.
      done = true;
      bridges.delete(pair);
      tcp.destroy();
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;

  return {
    url: `ws://${host}:${port}/v2`,
    port,
    get open() {
      return bridges.size;
    },
    get total() {
      return total;
    },
    get peakBuffered() {
      return peakBuffered;
    },
    async close() {
      for (const socket of upgrading) socket.destroy();
      for (const { ws, tcp } of [...bridges]) {
        ws.terminate();
        tcp.destroy();
      }
      bridges.clear();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// Run by hand: `npx tsx tests/helpers/neon-proxy.ts [port] [host:port]`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [port = "5433", address = "127.0.0.1:5432"] = process.argv.slice(2);
  const split = address.lastIndexOf(":");
  const proxy = await startNeonProxy({
    port: Number(port),
    target: { host: address.slice(0, split), port: Number(address.slice(split + 1)) },
  });
  console.log(`neon proxy on ${proxy.url}, bridging to ${address}: NEON_WS_PROXY=${proxy.url}`);
  const stop = () => void proxy.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
