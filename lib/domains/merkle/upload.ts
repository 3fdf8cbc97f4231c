// Reading a tree upload from the request stream: a byte cap, a deadline and a minimum rate (lib/http/body),
// a per-process limit on uploads in flight (each holds its tree in memory), the owner admitted from the
// members before the tree, JSON read token by token into a DumpReader, then the body's other members
// checked with the route's zod schema and the tree validated. Returns only a valid tree.
import type { ZodType } from "zod";
import { config } from "@/lib/core/config";
import { readBody, type BodyLimits } from "@/lib/core/body";
import { badRequest, payloadTooLarge, providerUnavailable, rateLimited, unprocessable } from "@/lib/core/errors";
import { enforceRateLimit, ipSubject } from "@/lib/platform/kv/rate-limit";
import { parseWith } from "@/lib/core/input";
import { DumpReader, UploadLimitError } from "./dump-reader";
import { publishTree, queuePublish } from "./jobs";
import { bytesToHex } from "./hashing";
import { currentTree } from "./read";
import type { ByteRecords } from "./records";
import { TreeWrite } from "./store";
import { JsonSyntaxError, JsonTokenizer } from "./json-stream";
import { nodesFormTree, validateDump, type ValidTree } from "./validate";
import { remember } from "@/lib/core/remember";

const inFlight = remember("merkle.uploads-in-flight", () => ({ count: 0, byClient: new Map<string, number>() }));

/**
 * Runs an upload (read, validate, store) holding one of the process's upload slots: each upload holds its
 * tree in memory until stored, so MERKLE_MAX_CONCURRENT_UPLOADS bounds the memory they take together. One client
 * (`client`: its ipSubject) holds at most MERKLE_MAX_UPLOADS_PER_CLIENT of them (429 beyond), so that a client
 * trickling its bodies for the upload deadline cannot hold every slot.
 */
export async function withUploadSlot<T>(client: string, work: () => Promise<T>): Promise<T> {
  const cfg = config();
  const held = inFlight.byClient.get(client) ?? 0;
  if (held >= cfg.MERKLE_MAX_UPLOADS_PER_CLIENT) {
    throw rateLimited(5, "another tree upload of this client is in progress; retry when it ends");
  }
  if (inFlight.count >= cfg.MERKLE_MAX_CONCURRENT_UPLOADS) {
    throw providerUnavailable("the server is busy with other tree uploads; retry shortly", 5);
  }
  inFlight.count++;
  inFlight.byClient.set(client, held + 1);
  try {
    return await work();
  } finally {
    inFlight.count--;
    const left = (inFlight.byClient.get(client) ?? 1) - 1;
    if (left > 0) inFlight.byClient.set(client, left);
    else inFlight.byClient.delete(client);
  }
}

/**
 * Reads and validates a tree upload. `fields` is the schema of the body's members other than `tree`
 * (it must include `merkleRoot`); their problems are reported before the tree's. `admit` decides from
 * those members whether the tree may be stored (it throws 404, 422 or 503 otherwise): it runs as soon as
 * the tree member starts when the members before it are complete (clients send them first), so an
 * unknown owner or a root the chain does not hold costs no more than the head of the body; else after
 * the whole body. `onNodes` is called, once the members were admitted that way, as soon as the nodes read
 * are a whole tree of merkleRoot (before the values, as dumps write them), while the rest is still read.
 */
export async function readTreeUpload<F extends { merkleRoot: string }, T = undefined>(
  request: Request,
  fields: ZodType<F>,
  options: {
    admit?: (fields: F) => Promise<T>;
    onNodes?: (nodes: ByteRecords, fields: F, admitted: T) => Promise<void>;
    limits?: Partial<BodyLimits>;
  } = {},
): Promise<{ fields: F; tree: ValidTree; admitted: T }> {
  const cfg = config();
  const reader = new DumpReader(cfg.MERKLE_MAX_LEAVES);
  const tokenizer = new JsonTokenizer(reader, { maxDepth: 32, maxStringBytes: 4096 });
  let early: { fields: F; admitted: T } | undefined;
  let triedEarly = false;
  /** The node count nodesFormTree found a tree of `root` (-1: not one), once asked. */
  let checked: { count: number; root: string } | undefined;
  const limits: BodyLimits = {
    maxBytes: cfg.MERKLE_MAX_BODY_BYTES,
    deadlineMs: cfg.MERKLE_UPLOAD_TIMEOUT_SECONDS * 1000,
    minBytesPerSecond: cfg.BODY_MIN_BYTES_PER_SECOND,
    ...options.limits,
  };
  try {
    const size = await readBody(request, limits, async (chunk) => {
      tokenizer.write(chunk);
      if (!triedEarly && reader.treeStarted && options.admit) {
        triedEarly = true;
        const head = fields.safeParse(reader.fields);
        if (head.success) early = { fields: head.data, admitted: await options.admit(head.data) };
      }
      if (early && options.onNodes && reader.nodesEnded && !checked) {
        const root = early.fields.merkleRoot;
        const isTree = nodesFormTree(reader, root);
        checked = { count: isTree ? reader.nodes.count : -1, root };
        if (isTree) await options.onNodes(reader.nodes, early.fields, early.admitted);
      }
    });
    if (size === 0) throw badRequest("a JSON body is required");
    tokenizer.end();
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw badRequest(`the body is not valid JSON: ${error.message}`);
    if (error instanceof UploadLimitError) throw payloadTooLarge(error.message);
    throw error;
  }
  if (reader.structureIssue?.path === "") throw badRequest(reader.structureIssue.message);
  const parsed = parseWith(fields, reader.fields, "body");
  const admitted = early ? early.admitted : ((await options.admit?.(parsed)) as T);
  const nodesChecked = checked?.count === reader.nodes.count && checked.root === parsed.merkleRoot;
  return { fields: parsed, tree: validateDump(reader, parsed.merkleRoot, nodesChecked), admitted };
}

/**
 * Reads, validates and stores an upload of `client` (its IP) for the owner `admit` names (asked again once the tree
 * is stored, before it is published): published now, or by a job after `delaySeconds`. The same tree as the owner's
 * current one is not written again (`unchanged`). The tree's tiles are written from its nodes while its values are
 * read (TreeWrite); what an upload that fails before its tree is complete has written is deleted, and its deletion
 * job withdrawn, before the answer.
 */
export async function saveTreeUpload<F extends { merkleRoot: string }>(
  request: Request,
  client: string,
  fields: ZodType<F>,
  admit: (fields: F) => Promise<string>,
  delaySeconds: (fields: F) => number | undefined = () => undefined,
): Promise<{ fields: F; leafCount: number; enqueued: boolean; unchanged: boolean }> {
  return withUploadSlot(ipSubject(client), async () => {
    let write: TreeWrite | undefined;
    const onNodes = async (nodes: ByteRecords, f: F, owner: string) => {
      const current = await currentTree(owner);
      if (current?.root !== f.merkleRoot.toLowerCase()) write = new TreeWrite(owner, nodes);
    };
    let saved: { fields: F; leafCount: number; treeId: number };
    try {
      const upload = await readTreeUpload(request, fields, { admit, onNodes });
      const owner = upload.admitted;
      const current = await currentTree(owner);
      if (current?.root === bytesToHex(upload.tree.root)) {
        await write?.abandon();
        return { fields: upload.fields, leafCount: upload.tree.leafCount, enqueued: false, unchanged: true };
      }
      write ??= new TreeWrite(owner, upload.tree.nodes);
      const treeId = await write.finish(upload.tree);
      // The chain may have moved to another root while the body was read (a sender can take minutes), and the owner's
      // tree of the new root may already be stored: admitted again now that this tree has its id, a stale tree is
      // refused here, and a tree of the new root admitted later always has a higher id (last upload wins).
      await admit(upload.fields);
      saved = { fields: upload.fields, leafCount: upload.tree.leafCount, treeId };
    } catch (error) {
      await write?.abandon();
      throw error;
    }
    const delay = delaySeconds(saved.fields);
    if (delay === undefined) await publishTree(saved.treeId);
    else await queuePublish(saved.treeId, delay);
    return { fields: saved.fields, leafCount: saved.leafCount, enqueued: delay !== undefined, unchanged: false };
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
    ipSubject(ip),
    setHeader,
  );
}
