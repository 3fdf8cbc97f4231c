// Body reading against hostile senders: one that stops, one that trickles a byte at a time (each byte
// would restart a stall timer), one that sends well but never ends, one that goes away. Each is cut with
// the right status, the stream is cancelled, and only a body read to its end counts as finished.
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { bodyFinished, readBody, readBodyText } from "@/lib/core/body";
import { HttpError } from "@/lib/core/errors";
import { buildStandardTree } from "@/lib/domains/merkle/build";
import { readTreeUpload } from "@/lib/domains/merkle/upload";

const fields = z.object({ merkleRoot: z.string() });
const request = (stream: ReadableStream<Uint8Array>) =>
  new Request("http://localhost/api/airdrops", { method: "POST", body: stream, duplex: "half" } as RequestInit);
const bytes = (text: string) => new TextEncoder().encode(text);

/** A stream that enqueues `chunk` every `everyMs` until cancelled; `cancelled` resolves when it is. */
function trickle(chunk: Uint8Array, everyMs: number) {
  let timer: NodeJS.Timeout | undefined;
  let onCancel!: () => void;
  const cancelled = new Promise<void>((resolve) => (onCancel = resolve));
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => void (timer = setInterval(() => c.enqueue(chunk), everyMs)),
    cancel: () => {
      clearInterval(timer);
      onCancel();
    },
  });
  return { stream, cancelled };
}

const limits = { maxBytes: 1 << 20, deadlineMs: 5_000, minBytesPerSecond: 100, windowMs: 200 };

describe("readBody against slow and broken senders", () => {
  it("answers 408 when the sender stops sending", async () => {
    const stream = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(bytes('{"tree": {')) });
    const error = await readTreeUpload(request(stream), fields, { limits }).catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 408,
      code: "request_timeout",
      message: expect.stringMatching(/slower than 100 bytes a second/),
    });
  });

  it("answers 408 to a sender that keeps the connection alive with a byte now and then, and cancels its stream", async () => {
    const { stream, cancelled } = trickle(bytes(" "), 40); // 25 bytes a second, under the 100 asked for
    const started = Date.now();
    const error = await readBody(request(stream), limits, () => {}).catch((e) => e);
    expect(error).toMatchObject({ status: 408, code: "request_timeout" });
    expect(Date.now() - started).toBeLessThan(1_500);
    await cancelled;
  });

  it("answers 408 past the total deadline, however fast the body comes", async () => {
    const { stream, cancelled } = trickle(new Uint8Array(1024), 10);
    const error = await readBody(request(stream), { ...limits, deadlineMs: 300 }, () => {}).catch((e) => e);
    expect(error).toMatchObject({ status: 408, message: expect.stringMatching(/within 0.3 s/) });
    await cancelled;
  });

  it("pauses the rate window while the consumer works (its time is not the sender's)", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes("0123456789"));
        c.enqueue(new Uint8Array(50));
        c.close();
      },
    });
    let calls = 0;
    const size = await readBody(request(stream), limits, async () => {
      if (calls++ === 0) await new Promise((resolve) => setTimeout(resolve, 600)); // three windows of 200 ms
    });
    expect(size).toBe(60);
  });

  it("answers 413 past the byte cap, declared or streamed", async () => {
    const declared = new Request("http://localhost/x", {
      method: "POST",
      body: "x".repeat(10),
      headers: { "content-length": "10" },
    });
    expect(await readBodyText(declared, { ...limits, maxBytes: 5 }).catch((e) => e)).toMatchObject({ status: 413 });
    const { stream } = trickle(new Uint8Array(64), 1);
    expect(await readBodyText(request(stream), { ...limits, maxBytes: 1000 }).catch((e) => e)).toMatchObject({
      status: 413,
    });
  });

  it("answers 400 when the connection breaks mid-body", async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    controller.enqueue(bytes('{"tree": {'));
    setTimeout(() => controller.error(new Error("socket hang up")), 20);
    const error = await readTreeUpload(request(stream), fields, { limits }).catch((e) => e);
    expect(error).toMatchObject({ status: 400, message: expect.stringMatching(/interrupted/) });
  });

  it("counts a body as finished only once it was read to its end", async () => {
    const whole = new Request("http://localhost/x", { method: "POST", body: '{"a":1}' });
    expect(bodyFinished(whole)).toBe(false);
    expect(await readBodyText(whole, limits)).toBe('{"a":1}');
    expect(bodyFinished(whole)).toBe(true);
    const { stream } = trickle(bytes("x"), 40);
    const cut = request(stream);
    await readBody(cut, limits, () => {}).catch(() => {});
    expect(bodyFinished(cut)).toBe(false);
  });
});

describe("readBody with a fast sender", () => {
  it("lets other work run while it reads chunks that have all arrived", async () => {
    const chunks = Array.from({ length: 40 }, () => bytes("x".repeat(1024)));
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of chunks) c.enqueue(chunk); // all there before reading starts: no wait between them
        c.close();
      },
    });
    let readWhenOthersRan = -1;
    let read = 0;
    setImmediate(() => (readWhenOthersRan = read));
    await readBody(request(body), { ...limits, maxBytes: 1 << 20 }, () => {
      const until = performance.now() + 1; // a consumer at work: 1 ms a chunk
      while (performance.now() < until);
      read++;
    });
    expect(read).toBe(40);
    expect(readWhenOthersRan).toBeGreaterThan(0);
    expect(readWhenOthersRan).toBeLessThan(20);
  });
});

describe("readBody memory", () => {
  it("keeps no chunk it has handed over: those read are collected while the rest of the body is still read", async () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    v8.setFlagsFromString("--no-expose-gc");
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ < 20) c.enqueue(new Uint8Array(1 << 16));
        else c.close();
      },
    });
    const handedOver: WeakRef<Uint8Array>[] = [];
    let alive = -1;
    await readBody(request(body), { ...limits, maxBytes: 1 << 24 }, async (chunk) => {
      handedOver.push(new WeakRef(chunk));
      if (handedOver.length === 15) {
        await new Promise((resolve) => setImmediate(resolve)); // WeakRefs are only cleared in a later job
        gc();
        alive = handedOver.slice(0, 10).filter((ref) => ref.deref() !== undefined).length;
      }
    });
    expect(handedOver).toHaveLength(20);
    expect(alive).toBe(0);
  });
});

describe("readTreeUpload admission", () => {
  const tree = (root: string) => `{"merkleRoot":"${root}","tree":{"format":"standard-v1"`;

  it("admits from the members before the tree, before reading the rest of the body", async () => {
    const { stream, cancelled } = trickle(bytes(`${tree("0xab")},"values":[`), 5);
    const seen: string[] = [];
    const admit = async (f: { merkleRoot: string }) => {
      seen.push(f.merkleRoot);
      throw new HttpError(404, "not_found", "no such owner");
    };
    const error = await readTreeUpload(request(stream), fields, { admit, limits }).catch((e) => e);
    expect(error).toMatchObject({ status: 404 });
    expect(seen).toEqual(["0xab"]);
    await cancelled;
  });

  it("admits after the whole body when the members come after the tree", async () => {
    const body = '{"tree": 1, "merkleRoot": "0xcd"}';
    const seen: string[] = [];
    const admit = async (f: { merkleRoot: string }) => void seen.push(f.merkleRoot);
    const error = await readTreeUpload(request(new Blob([body]).stream()), fields, { admit, limits }).catch((e) => e);
    expect(seen).toEqual(["0xcd"]);
    expect(error).toMatchObject({ status: 400 }); // the tree itself is checked after admission
  });
});

describe("readTreeUpload onNodes", () => {
  const { root, dump } = buildStandardTree(
    Array.from({ length: 5 }, (_, i) => [`0x${String(i + 1).padStart(40, "0")}`, BigInt(i + 1)] as const),
  );
  /** The body up to its values, then the rest once `go` resolves. */
  const gated = (text: string, go: Promise<unknown>) =>
    new ReadableStream<Uint8Array>({
      async start(c) {
        const cut = text.indexOf('"values"');
        c.enqueue(bytes(text.slice(0, cut)));
        await go;
        c.enqueue(bytes(text.slice(cut)));
        c.close();
      },
    });

  it("hands over the nodes, a tree of merkleRoot, before the values are read", async () => {
    let handOver!: (count: number) => void;
    const handed = new Promise<number>((resolve) => (handOver = resolve));
    const onNodes = async (nodes: { count: number }, f: { merkleRoot: string }, owner: string) => {
      expect([f.merkleRoot, owner]).toEqual([root, "owner"]);
      handOver(nodes.count);
    };
    const body = gated(JSON.stringify({ merkleRoot: root, tree: dump }), handed);
    const { tree } = await readTreeUpload(request(body), fields, { admit: async () => "owner", onNodes, limits });
    expect(await handed).toBe(9);
    expect(tree.leafCount).toBe(5);
  });

  it("does not for nodes that are not a tree of merkleRoot", async () => {
    const calls: number[] = [];
    const onNodes = async (nodes: { count: number }) => void calls.push(nodes.count);
    const admit = async () => "owner";
    const read = (text: string) =>
      readTreeUpload(request(new Blob([text]).stream()), fields, { admit, onNodes, limits }).catch((e) => e);
    const bad = structuredClone(dump);
    bad.tree[3] = bad.tree[4];
    expect(await read(JSON.stringify({ merkleRoot: root, tree: bad }))).toMatchObject({ status: 422 });
    const other = `0x${"ab".repeat(32)}`;
    expect(await read(JSON.stringify({ merkleRoot: other, tree: dump }))).toMatchObject({ status: 422 });
    expect(calls).toEqual([]);
  });
});
