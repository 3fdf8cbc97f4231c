// Reading a tree upload from the request stream: a byte cap, a deadline and a minimum rate (lib/http/body),
// a per-process limit on uploads in flight (each holds its tree in memory), the owner admitted from the
// members before the tree, JSON read token by token into a DumpReader, then the body's other members
// checked with the route's zod schema and the tree validated. Returns only a valid tree.
import type { ZodType } from "zod";
import { config } from "@/lib/core/config";
import { readBody, type BodyLimits } from "@/lib/core/body";
import { badRequest, HttpError, providerUnavailable, unprocessable } from "@/lib/core/errors";
import { enforceRateLimit } from "@/lib/platform/kv/rate-limit";
import { parseWith } from "@/lib/core/input";
import { DumpReader, UploadLimitError } from "./dump-reader";
import { publishTree, queuePublish } from "./jobs";
import { bytesToHex } from "./hashing";
import { currentTree } from "./read";
import { stageTree } from "./store";
import { JsonSyntaxError, JsonTokenizer } from "./json-stream";
import { validateDump, type ValidTree } from "./validate";
import { remember } from "@/lib/core/remember";

const inFlight = remember("merkle.uploads-in-flight", () => ({ count: 0 }));

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
 * (it must include `merkleRoot`); their problems are reported before the tree's. `admit` decides from
 * those members whether the tree may be stored (it throws 404, 422 or 503 otherwise): it runs as soon as
 * the tree member starts when the members before it are complete (clients send them first), so an
 * unknown owner or a root the chain does not hold costs no more than the head of the body; else after
 * the whole body.
 */
export async function readTreeUpload<F extends { merkleRoot: string }, T = undefined>(
  request: Request,
  fields: ZodType<F>,
  options: { admit?: (fields: F) => Promise<T>; limits?: Partial<BodyLimits> } = {},
): Promise<{ fields: F; tree: ValidTree; admitted: T }> {
  const cfg = config();
  const reader = new DumpReader(cfg.MERKLE_MAX_LEAVES);
  const tokenizer = new JsonTokenizer(reader, { maxDepth: 32, maxStringBytes: 4096 });
  let early: { admitted: T } | undefined;
  let triedEarly = false;
  const limits: BodyLimits = {
    maxBytes: cfg.MERKLE_MAX_BODY_BYTES,
    deadlineMs: cfg.MERKLE_UPLOAD_TIMEOUT_SECONDS * 1000,
    minBytesPerSecond: cfg.BODY_MIN_BYTES_PER_SECOND,
    ...options.limits,
  };
  try {
    const size = await readBody(request, limits, async (chunk) => {
      tokenizer.write(chunk);
      if (triedEarly || !reader.treeStarted || !options.admit) return;
      triedEarly = true;
      const head = fields.safeParse(reader.fields);
      if (head.success) early = { admitted: await options.admit(head.data) };
    });
    if (size === 0) throw badRequest("a JSON body is required");
    tokenizer.end();
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw badRequest(`the body is not valid JSON: ${error.message}`);
    if (error instanceof UploadLimitError) throw new HttpError(413, "payload_too_large", error.message);
    throw error;
  }
  if (reader.structureIssue?.path === "") throw badRequest(reader.structureIssue.message);
  const parsed = parseWith(fields, reader.fields, "body");
  const admitted = early ? early.admitted : ((await options.admit?.(parsed)) as T);
  return { fields: parsed, tree: validateDump(reader, parsed.merkleRoot), admitted };
}

/**
 * Reads, validates and stores an upload for the owner `admit` names: published now, or by a job after
 * `delaySeconds`. The same tree as the owner's current one is not written again (`unchanged`).
 */
export async function saveTreeUpload<F extends { merkleRoot: string }>(
  request: Request,
  fields: ZodType<F>,
  admit: (fields: F) => Promise<string>,
  delaySeconds: (fields: F) => number | undefined = () => undefined,
): Promise<{ fields: F; leafCount: number; enqueued: boolean; unchanged: boolean }> {
  return withUploadSlot(async () => {
    const upload = await readTreeUpload(request, fields, { admit });
    const owner = upload.admitted;
    const saved = { fields: upload.fields, leafCount: upload.tree.leafCount };
    const current = await currentTree(owner);
    if (current?.root === bytesToHex(upload.tree.root)) return { ...saved, enqueued: false, unchanged: true };
    const delay = delaySeconds(upload.fields);
    const treeId = await stageTree(owner, upload.tree);
    if (delay === undefined) await publishTree(treeId);
    else await queuePublish(treeId, delay);
    return { ...saved, enqueued: delay !== undefined, unchanged: false };
  });
}

const ZERO_ROOT = `0x${"0".repeat(64)}`;

/**
 * Admits a tree only when the chain holds its root (`holder` names what holds it, e.g. "presale 3 on
 * chain 8453"): a 422 naming the expected and the received root otherwise. Trees are what proofs are
 * served from, so one the chain does not hold would let anyone hand out proofs that fail, or replace the
 * real claimers' tree.
 */
export function requireChainRoot(onChain: string | null, received: string, holder: string): void {
  const expected = (onChain ?? ZERO_ROOT).toLowerCase();
  const given = received.toLowerCase();
  if (expected !== ZERO_ROOT && expected === given) return;
  const message =
    expected === ZERO_ROOT
      ? `${holder} holds no Merkle root on chain`
      : `merkleRoot ${given} is not the root ${holder} holds on chain (${expected})`;
  throw unprocessable(message, [{ in: "body", path: "merkleRoot", message, expected, received: given }]);
}

/** Tree uploads are expensive (up to hundreds of MB each): MERKLE_UPLOADS_PER_HOUR per client IP. */
export async function limitUploads(ip: string, setHeader: (name: string, value: string) => void): Promise<void> {
  await enforceRateLimit(
    { name: "merkle-upload", limit: config().MERKLE_UPLOADS_PER_HOUR, windowSeconds: 3600 },
    `ip:${ip}`,
    setHeader,
  );
}
