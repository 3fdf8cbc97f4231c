// Reading a tree upload from the request stream: a byte cap, a per-process limit on uploads in flight
// (each holds its tree in memory), JSON read token by token into a DumpReader, then the body's other
// members checked with the route's zod schema and the tree validated. Returns only a valid tree.
import type { ZodType } from "zod";
import { config } from "../config";
import { badRequest, HttpError, providerUnavailable } from "../http/errors";
import { enforceRateLimit } from "../http/rate-limit";
import { parseWith } from "../http/route";
import { DumpReader, UploadLimitError } from "./dump-reader";
import { publishTree, queuePublish } from "./jobs";
import { stageTree } from "./store";
import { JsonSyntaxError, JsonTokenizer } from "./json-stream";
import { validateDump, type ValidTree } from "./validate";

const tooLarge = (message: string) => new HttpError(413, "payload_too_large", message);

const inFlight = ((globalThis as any).__merkleUploads ??= { count: 0 }) as { count: number };

/** An upload that sends nothing for this long gives its slot back (a slow sender must not hold it). */
const STALL_MS = 60_000;

async function readWithin(stream: ReadableStreamDefaultReader<Uint8Array>, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(badRequest(`the upload stalled: no data for ${ms / 1000} s`)), ms);
  });
  // A client that goes away mid-upload is not a server fault: 400, not 500 (nobody reads it anyway).
  const read = stream.read().catch(() => Promise.reject(badRequest("the upload was interrupted (the connection closed)")));
  read.catch(() => {}); // when the stall wins, a later failure of this read has no one waiting for it
  try {
    return await Promise.race([read, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

async function readInto(request: Request, reader: DumpReader, maxBytes: number, stallMs: number): Promise<void> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(`request body exceeds ${maxBytes} bytes`);
  if (!request.body) throw badRequest("a JSON body is required");
  const tokenizer = new JsonTokenizer(reader, { maxDepth: 32, maxStringBytes: 4096 });
  const stream = request.body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await readWithin(stream, stallMs);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw tooLarge(`request body exceeds ${maxBytes} bytes`);
      tokenizer.write(value);
    }
    if (size === 0) throw badRequest("a JSON body is required");
    tokenizer.end();
  } catch (error) {
    await stream.cancel().catch(() => {});
    if (error instanceof JsonSyntaxError) throw badRequest(`the body is not valid JSON: ${error.message}`);
    if (error instanceof UploadLimitError) throw tooLarge(error.message);
    throw error;
  }
}

/**
 * Runs an upload (read, validate, store) holding one of the process's upload slots: each upload holds its
 * tree in memory until stored, so MERKLE_MAX_CONCURRENT_UPLOADS bounds the memory they take together.
 */
export async function withUploadSlot<T>(work: () => Promise<T>): Promise<T> {
  if (inFlight.count >= config().MERKLE_MAX_CONCURRENT_UPLOADS) {
    throw providerUnavailable("the server is busy with other tree uploads; retry shortly", 5);
  }
  inFlight.count++;
  try {
    return await work();
  } finally {
    inFlight.count--;
  }
}

/**
 * Reads and validates a tree upload. `fields` is the schema of the body's members other than `tree`
 * (it must include `merkleRoot`); their problems are reported before the tree's.
 */
export async function readTreeUpload<F extends { merkleRoot: string }>(
  request: Request,
  fields: ZodType<F>,
  options: { stallMs?: number } = {},
): Promise<{ fields: F; tree: ValidTree }> {
  const cfg = config();
  const reader = new DumpReader(cfg.MERKLE_MAX_LEAVES);
  await readInto(request, reader, cfg.MERKLE_MAX_BODY_BYTES, options.stallMs ?? STALL_MS);
  if (reader.structureIssue?.path === "") throw badRequest(reader.structureIssue.message);
  const parsed = parseWith(fields, reader.fields, "body");
  return { fields: parsed, tree: validateDump(reader, parsed.merkleRoot) };
}

/** Reads, validates and stores an upload for `owner`: published now, or by a job after `delaySeconds`. */
export async function saveTreeUpload<F extends { merkleRoot: string }>(
  request: Request,
  fields: ZodType<F>,
  target: (fields: F) => { owner: string; delaySeconds?: number },
): Promise<{ fields: F; treeId: number; leafCount: number; enqueued: boolean }> {
  return withUploadSlot(async () => {
    const upload = await readTreeUpload(request, fields);
    const { owner, delaySeconds } = target(upload.fields);
    const treeId = await stageTree(owner, upload.tree, { stageLeaves: delaySeconds !== undefined });
    if (delaySeconds === undefined) await publishTree(treeId);
    else await queuePublish(treeId, delaySeconds);
    return { fields: upload.fields, treeId, leafCount: upload.tree.leafCount, enqueued: delaySeconds !== undefined };
  });
}

/** Tree uploads are expensive (up to hundreds of MB each): MERKLE_UPLOADS_PER_HOUR per client IP. */
export async function limitUploads(ip: string, setHeader: (name: string, value: string) => void): Promise<void> {
  await enforceRateLimit({ name: "merkle-upload", limit: config().MERKLE_UPLOADS_PER_HOUR, windowSeconds: 3600 }, `ip:${ip}`, setHeader);
}
