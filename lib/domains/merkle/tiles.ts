// How a tree's nodes are stored: in tiles, each a small subtree. A tile rooted at node r holds the nodes
// below r for up to TILE_HEIGHT levels (not r itself), level by level, 32 bytes each. Tile roots sit at
// depths counted up from the deepest level, so the bottom tiles (almost all of them) are full.
// A proof's siblings hang off the leaf's path, so every sibling is in a tile rooted on that path: a
// proof of a million-leaf tree (depth 20) reads 4 tiles of at most 4 KiB, and the tree is ~16,000 rows
// instead of two million node rows.
// Node indexes are StandardMerkleTree's: root 0, children of i at 2i+1 and 2i+2.
export const TILE_HEIGHT = 6;

export type TreeShape = { nodeCount: number; tileHeight: number };

export const depthOf = (i: number): number => 31 - Math.clz32(i + 1);

/** Depth of the root of the tile holding the nodes at depth `d` (d >= 1). */
function tileRootDepth(d: number, maxDepth: number, height: number): number {
  return Math.max(0, maxDepth - (Math.floor((maxDepth - d) / height) + 1) * height);
}

/** The tile (its root's index) and slot within it of node `i` (i >= 1). */
export function locate(i: number, shape: TreeShape): { tile: number; slot: number } {
  const d = depthOf(i);
  const k = d - tileRootDepth(d, depthOf(shape.nodeCount - 1), shape.tileHeight);
  const tile = ((i + 1) >>> k) - 1;
  return { tile, slot: (1 << k) - 2 + (i + 1 - ((tile + 1) << k)) };
}

export type Tile = { tile: number; nodes: Uint8Array };

/** The bytes of a full tile of `height` levels: the most any tile of a tree holds. */
export const tileBytes = (height: number): number => ((2 << height) - 2) * 32;

/**
 * Every tile of a tree, in ascending order of tile index, reading the 32-byte nodes first..first+count-1 (one level
 * of a tile: consecutive nodes) with `read(first, count, out, at)`. A tile's `nodes` is a view of a buffer the next
 * tile is read into: copy what is kept. (A million-leaf tree is 16,000 tiles: a copy of each, then of each batch,
 * took about a second of its save.)
 */
export function* buildTiles(
  shape: TreeShape,
  read: (first: number, count: number, out: Uint8Array, at: number) => void,
): Generator<Tile> {
  const { nodeCount, tileHeight } = shape;
  const maxDepth = depthOf(nodeCount - 1);
  const rootDepths = [0];
  for (let a = ((maxDepth - 1) % tileHeight) + 1; a < maxDepth; a += tileHeight) if (a > 0) rootDepths.push(a);
  for (let t = 0; t < rootDepths.length; t++) {
    const a = rootDepths[t];
    const levels = (rootDepths[t + 1] ?? maxDepth) - a;
    const buffer = new Uint8Array(tileBytes(levels));
    for (let r = 2 ** a - 1; r <= 2 ** (a + 1) - 2 && 2 * r + 1 < nodeCount; r++) {
      let used = 0;
      for (let k = 1; k <= levels; k++) {
        const first = ((r + 1) << k) - 1;
        const count = Math.min(1 << k, nodeCount - first);
        if (count <= 0) break;
        read(first, count, buffer, ((1 << k) - 2) * 32);
        used = (1 << k) - 2 + count;
      }
      yield { tile: r, nodes: buffer.subarray(0, used * 32) };
    }
  }
}

/** Sibling indexes from the leaf up, as a proof lists them. */
export function proofIndexes(leafIndex: number): number[] {
  const out: number[] = [];
  for (let j = leafIndex; j > 0; j = (j - 1) >> 1) out.push(j % 2 === 1 ? j + 1 : j - 1);
  return out;
}

/** The tiles a proof of `leafIndex` reads. */
export function proofTiles(leafIndex: number, shape: TreeShape): number[] {
  return [...new Set(proofIndexes(leafIndex).map((i) => locate(i, shape).tile))];
}

/** The proof of `leafIndex` from its tiles; null when a tile is missing (the tree was deleted meanwhile). */
export function proofFromTiles(
  leafIndex: number,
  shape: TreeShape,
  tiles: Map<number, Uint8Array>,
): Uint8Array[] | null {
  const proof: Uint8Array[] = [];
  for (const i of proofIndexes(leafIndex)) {
    const { tile, slot } = locate(i, shape);
    const bytes = tiles.get(tile);
    if (!bytes || bytes.length < (slot + 1) * 32) return null;
    proof.push(bytes.subarray(slot * 32, slot * 32 + 32));
  }
  return proof;
}
