// Seeded Merkle trees (airdrops, presale allowlists) written as the tree store keeps a published upload:
// a `current` tree row, its tiles (lib/domains/merkle/tiles.ts) and its leaves. Trees are built with the store's
// own builder (lib/domains/merkle/build.ts) and tiled with its own layout; only the writing differs from an
// upload (lib/domains/merkle/store.ts): it goes through the seed's bulk connections, since db() has no
// connection to spare while seeding.
import { sql } from "kysely";
import { arrayLiteral } from "@/db/array-literal";
import { buildStandardTree } from "@/lib/domains/merkle/build";
import { chunkNumbers } from "@/lib/domains/merkle/leaf-order";
import { buildTiles, TILE_HEIGHT } from "@/lib/domains/merkle/tiles";
import { DATASET_END } from "./tokens";
import type { Prng } from "./prng";
import type { SeedContext } from "./types";

export type SeedTree = { owner: string; values: readonly (readonly [string, bigint])[] };
export type SeededTree = { owner: string; root: `0x${string}`; leafCount: number };

type Columns = Record<string, unknown[]>;

/** Trees as column arrays of the three tables, tree ids left to fill in once they are reserved. */
function layOut(trees: readonly SeedTree[]) {
  const rows = {
    trees: [] as SeededTree[],
    tiles: { tree: [], tile: [], _nodes: [] } as Columns,
    chunks: { tree: [], _first: [], _accounts: [], tree_indexes: [], amounts: [] } as Columns,
  };
  trees.forEach((spec, k) => {
    const { root, dump } = buildStandardTree(spec.values);
    rows.trees.push({ owner: spec.owner, root, leafCount: spec.values.length });
    const shape = { nodeCount: dump.tree.length, tileHeight: TILE_HEIGHT };
    const read = (first: number, count: number, out: Uint8Array, at: number) => {
      for (let q = 0; q < count; q++) out.set(Buffer.from(dump.tree[first + q].slice(2), "hex"), at + 32 * q);
    };
    for (const { tile, nodes } of buildTiles(shape, read)) {
      rows.tiles.tree.push(k);
      rows.tiles.tile.push(tile);
      rows.tiles._nodes.push(Buffer.from(nodes).toString("hex"));
    }
    // In the store's leaf order, (account, treeIndex), cut into its chunks (lib/domains/merkle/leaf-order.ts).
    const leaves = dump.values.map((v) => [v.value[0].slice(2).toLowerCase(), v.treeIndex, v.value[1]] as const);
    leaves.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    const chunkOf = chunkNumbers(leaves.length, (j) => leaves[j][0] === leaves[j - 1][0]);
    for (let start = 0; start < leaves.length; ) {
      let end = start + 1;
      while (end < leaves.length && chunkOf[end] === chunkOf[start]) end++;
      const part = leaves.slice(start, end);
      rows.chunks.tree.push(k);
      rows.chunks._first.push(part[0][0]);
      rows.chunks._accounts.push(
        arrayLiteral(
          part.map((l) => l[0]),
          true,
        ),
      );
      rows.chunks.tree_indexes.push(
        arrayLiteral(
          part.map((l) => l[1]),
          true,
        ),
      );
      rows.chunks.amounts.push(
        arrayLiteral(
          part.map((l) => l[2]),
          true,
        ),
      );
      start = end;
    }
  });
  return rows;
}

const slice = (columns: Columns, start: number, end: number): Columns =>
  Object.fromEntries(Object.entries(columns).map(([name, values]) => [name, values.slice(start, end)]));

/**
 * Stores each tree as its owner's current tree; `label` names the progress phases ("airdrop" ->
 * "airdrop trees", "airdrop tiles", "airdrop leaf chunks"). Returns the trees with their roots, in input order.
 */
export async function seedTrees(ctx: SeedContext, label: string, trees: readonly SeedTree[]): Promise<SeededTree[]> {
  if (!trees.length) return [];
  const rows = layOut(trees);
  // Ids from the table's own sequence (so uploads made later never collide), handed out in input order.
  const { rows: reserved } = await sql<{ id: string }>`
    SELECT nextval(pg_get_serial_sequence('merkle_trees', 'id')) AS id FROM generate_series(1, ${trees.length}) ORDER BY 1`.execute(
    ctx.db,
  );
  const ids = reserved.map((r) => Number(r.id));
  const at = `'${DATASET_END.toISOString()}'::timestamptz`;
  await ctx.insert({
    phase: `${label} trees`,
    table: "merkle_trees",
    total: trees.length,
    columns: [
      ["id", "int8"],
      ["owner", "text", "plain"],
      ["_root", "text", "plain"],
      ["leaf_count", "int4"],
      ["node_count", "int4"],
      ["tile_height", "int2"],
    ],
    select: { root: "decode(u._root, 'hex')", state: "'current'", created_at: at, published_at: at },
    generate: (start, end) => {
      const part = rows.trees.slice(start, end);
      return {
        id: ids.slice(start, end),
        owner: part.map((t) => t.owner),
        _root: part.map((t) => t.root.slice(2)),
        leaf_count: part.map((t) => t.leafCount),
        node_count: part.map((t) => 2 * t.leafCount - 1),
        tile_height: part.map(() => TILE_HEIGHT),
      };
    },
  });
  const withIds = (columns: Columns, start: number, end: number) => {
    const { tree, ...rest } = slice(columns, start, end);
    return { tree_id: tree.map((k) => ids[k as number]), ...rest };
  };
  await ctx.insert({
    phase: `${label} tiles`,
    table: "merkle_tiles",
    total: rows.tiles.tile.length,
    batchSize: 1000,
    columns: [
      ["tree_id", "int8"],
      ["tile", "int4"],
      ["_nodes", "text", "plain"],
    ],
    select: { nodes: "decode(u._nodes, 'hex')" },
    generate: (start, end) => withIds(rows.tiles, start, end),
  });
  await ctx.insert({
    phase: `${label} leaf chunks`,
    table: "merkle_leaf_chunks",
    total: rows.chunks.tree.length,
    batchSize: 500,
    columns: [
      ["tree_id", "int8"],
      ["_first", "text", "plain"],
      ["_accounts", "text[]"],
      ["tree_indexes", "int4[]"],
      ["amounts", "numeric[]"],
    ],
    select: {
      first_account: "decode(u._first, 'hex')",
      accounts: "ARRAY(SELECT decode(a, 'hex') FROM unnest(u._accounts::text[]) AS a)",
    },
    generate: (start, end) => withIds(rows.chunks, start, end),
  });
  return rows.trees;
}

/** The tables the tree store keeps (no foreign keys: `--reset` must name them). */
export const TREE_TABLES = ["merkle_trees", "merkle_tiles", "merkle_leaf_chunks"] as const;

/**
 * Accounts for seeded leaves: mostly seeded users' verified addresses (claimers and buyers are the
 * service's users), the rest fresh addresses. Loaded once per seeder, in a fixed order.
 */
export async function leafAccounts(ctx: SeedContext): Promise<(rng: Prng) => string> {
  const { rows } = await sql<{ address: string }>`SELECT address FROM user_addresses ORDER BY fid, address`.execute(
    ctx.db,
  );
  const known = rows.map((r) => r.address);
  return (rng) => (known.length && rng.chance(0.7) ? rng.pick(known) : rng.hex(20));
}

/** `count` distinct token ids spread over ids from `from` (a fraction of the range) to the last one. */
export function spreadTokenIds(ctx: SeedContext, count: number, from = 0): number[] {
  const { firstId, count: tokens } = ctx.tokens;
  const start = Math.floor(tokens * from);
  const span = tokens - start;
  const ids = new Set<number>();
  for (let i = 0; ids.size < Math.min(count, span) && i < 4 * count; i++)
    ids.add(firstId + start + ((i * 7919 + 13) % span));
  return [...ids];
}
