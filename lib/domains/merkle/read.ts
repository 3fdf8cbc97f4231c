// Reading trees: an owner's current tree, an account's leaves, proofs from tiles, allocation pages.
// Never loads a tree: a proof is one statement, the account's leaf and the few tiles on its path.
import { z } from "zod";
import { db } from "@/db";
import { encodeCursor, staleCursor, zCursorOf } from "@/lib/core/cursor";
import { internalError } from "@/lib/core/errors";
import { STORED_ADDRESS } from "@/lib/core/evm";
import { log } from "@/lib/core/log";
import { kv } from "@/lib/platform/kv";
import { bytesToHex, leafHashInto, processProof } from "./hashing";
import {
  accountBytes,
  findAccountLeaves,
  findAccountProofTiles,
  findCurrentTree,
  findLeafPage,
  findReadableTree,
  MAX_LEAVES_PER_ACCOUNT,
  type TreeRow,
  sumTreeAmounts,
} from "./queries";
import { proofFromTiles, type TreeShape } from "./tiles";

export { MAX_LEAVES_PER_ACCOUNT } from "./queries";

export type TreeRef = { id: number; root: `0x${string}`; leafCount: number; shape: TreeShape };
export type Leaf = { account: string; treeIndex: number; amount: string };

const toRef = (row: TreeRow): TreeRef => ({
  id: Number(row.id),
  root: bytesToHex(row.root),
  leafCount: row.leaf_count,
  shape: { nodeCount: row.node_count, tileHeight: row.tile_height },
});

/** The owner's current tree, or null when it has none. */
export async function currentTree(owner: string): Promise<TreeRef | null> {
  const row = await findCurrentTree(db(), owner);
  return row ? toRef(row) : null;
}

/** The current tree and the account's leaves in it (largest amount first), in one statement. */
export async function accountLeaves(owner: string, account: string): Promise<{ tree: TreeRef; leaves: Leaf[] } | null> {
  const rows = await findAccountLeaves(db(), owner, account);
  if (!rows.length) return null;
  const leaves = rows
    .filter((r) => r.tree_index !== null)
    .map((r) => ({ account, treeIndex: r.tree_index!, amount: r.amount! }));
  return { tree: toRef(rows[0]), leaves };
}

/**
 * The sum of the amounts of the owner's current tree (wei), or null without one. A tree never changes once
 * stored, so its sum is kept in the cache for a day, by tree id.
 */
export async function currentTreeTotal(owner: string): Promise<bigint | null> {
  const tree = await currentTree(owner);
  if (!tree) return null;
  const store = await kv();
  const key = `merkle:total:${tree.id}`;
  const cached = await store.get<string>(key);
  if (cached !== null && cached !== undefined) return BigInt(cached);
  const total = await sumTreeAmounts(db(), tree.id);
  await store.set(key, total, 86_400);
  return BigInt(total);
}

/**
 * A leaf's proof from the tiles read with it, checked against the tree's root: a proof that does not verify is
 * never served. The tree row and its tiles come from one statement, so one snapshot: a tile missing is a broken
 * store, not a tree replaced meanwhile.
 */
function verifiedProof(tree: TreeRef, leaf: Leaf, tiles: Map<number, Uint8Array>): `0x${string}`[] {
  const proof = proofFromTiles(leaf.treeIndex, tree.shape, tiles);
  const hash = new Uint8Array(32);
  if (proof) leafHashInto(accountBytes(leaf.account), 0, BigInt(leaf.amount), hash, 0);
  if (!proof || processProof(hash, proof) !== tree.root) {
    log.error(proof ? "stored proof does not verify" : "stored tree lacks a tile of a proof", {
      treeId: tree.id,
      treeIndex: leaf.treeIndex,
    });
    throw internalError();
  }
  return proof.map(bytesToHex);
}

export type AllocationPage = { tree: TreeRef; leaves: Leaf[]; nextCursor: string | null };

/** Where an allocation page starts: the tree it pins (`t`), then the last (account, treeIndex) it showed. */
const allocationCursor = z.object({
  t: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  a: z.string().regex(STORED_ADDRESS),
  i: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});
export type AllocationCursor = z.infer<typeof allocationCursor>;

/** The `cursor` parameter of the allocation lists (airdrops, presale allowlists). */
export const zAllocationCursor = zCursorOf(allocationCursor);

/**
 * One page of a tree's leaves in (account, treeIndex) order. A cursor pins the tree it started on, so a
 * client paging through an allocation list never gets a mix of an old and a new upload: once that tree
 * has been replaced and deleted, the cursor is answered 409 and the client starts again.
 */
export async function allocationPage(
  owner: string,
  cursor: AllocationCursor | undefined,
  limit: number,
): Promise<AllocationPage | null> {
  let tree: TreeRef | null;
  if (cursor) {
    const row = await findReadableTree(db(), owner, cursor.t);
    if (!row) throw staleCursor("a newer upload replaced this list");
    tree = toRef(row);
  } else {
    tree = await currentTree(owner);
    if (!tree) return null;
  }
  const rows = await findLeafPage(db(), tree.id, cursor ? { account: cursor.a, treeIndex: cursor.i } : null, limit + 1);
  const leaves = rows
    .slice(0, limit)
    .map((r) => ({ account: bytesToHex(r.account), treeIndex: r.tree_index, amount: r.amount }));
  const last = leaves.at(-1);
  const nextCursor =
    rows.length > limit && last ? encodeCursor({ t: tree.id, a: last.account, i: last.treeIndex }) : null;
  return { tree, leaves, nextCursor };
}

/**
 * Verified proofs of the account's leaves in the owner's current tree, largest amount first: of every leaf, or of
 * the first `limit`. One statement reads the leaves and their proofs' tiles. Null when the owner has no current tree.
 */
export async function accountProofs(
  owner: string,
  account: string,
  limit = MAX_LEAVES_PER_ACCOUNT,
): Promise<{ leaves: Leaf[]; proofs: `0x${string}`[][] } | null> {
  const rows = await findAccountProofTiles(db(), owner, account, limit);
  if (!rows.length) return null;
  const tree = toRef(rows[0]);
  // A row per tile on each leaf's path, a leaf's rows one after another.
  const found: { leaf: Leaf; tiles: Map<number, Uint8Array> }[] = [];
  for (const row of rows) {
    if (row.tree_index === null) continue;
    if (found.at(-1)?.leaf.treeIndex !== row.tree_index)
      found.push({ leaf: { account, treeIndex: row.tree_index, amount: row.amount! }, tiles: new Map() });
    if (row.tile !== null) found.at(-1)!.tiles.set(row.tile, row.nodes!);
  }
  return {
    leaves: found.map((f) => f.leaf),
    proofs: found.map((f) => verifiedProof(tree, f.leaf, f.tiles)),
  };
}
