// The upload reader's stream handling: a sender that stalls or goes away gets a 400 and frees its slot.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { HttpError } from "@/lib/http/errors";
import { readTreeUpload } from "@/lib/merkle/upload";

const fields = z.object({ merkleRoot: z.string() });
const request = (stream: ReadableStream<Uint8Array>) =>
  new Request("http://localhost/api/airdrops", { method: "POST", body: stream, duplex: "half" } as RequestInit);

describe("readTreeUpload on a bad stream", () => {
  it("answers 400 when the sender stops sending", async () => {
    const stream = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{"tree": {')) });
    const error = await readTreeUpload(request(stream), fields, { stallMs: 50 }).catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 400, message: expect.stringMatching(/stalled/) });
  });

  it("answers 400 when the connection breaks mid-body", async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    controller.enqueue(new TextEncoder().encode('{"tree": {'));
    setTimeout(() => controller.error(new Error("socket hang up")), 20);
    const error = await readTreeUpload(request(stream), fields, { stallMs: 5000 }).catch((e) => e);
    expect(error).toMatchObject({ status: 400, message: expect.stringMatching(/interrupted/) });
  });
});
