import { describe, expect, it } from "vitest";
import { buildTiles, locate, proofFromTiles, proofIndexes, proofTiles, TILE_HEIGHT } from "@/lib/domains/merkle/tiles";

/** Node i's "hash" is just its index, so a misplaced node shows which one it is. */
function fakeTree(nodeCount: number, tileHeight: number) {
  const shape = { nodeCount, tileHeight };
  const tiles = new Map<number, Uint8Array>();
  const read = (first: number, count: number, out: Uint8Array, at: number) => {
    for (let q = 0; q < count; q++) new DataView(out.buffer, out.byteOffset).setUint32(at + 32 * q, first + q + 1);
  };
  for (const t of buildTiles(shape, read)) {
    tiles.set(t.tile, t.nodes.slice()); // a view of the buffer the next tile is read into
  }
  return { shape, tiles };
}

describe("tiles", () => {
  it("put every node but the root in exactly one tile, where locate() says", () => {
    for (const nodeCount of [1, 3, 5, 7, 13, 127, 129, 255, 1023, 4095, 20001]) {
      for (const height of [1, 2, 3, TILE_HEIGHT]) {
        const { shape, tiles } = fakeTree(nodeCount, height);
        let stored = 0;
        for (const bytes of tiles.values()) stored += bytes.length / 32;
        expect(stored).toBe(nodeCount - 1);
        const misplaced: number[] = [];
        for (let i = 1; i < nodeCount; i++) {
          const { tile, slot } = locate(i, shape);
          const bytes = tiles.get(tile)!;
          if (new DataView(bytes.buffer, bytes.byteOffset).getUint32(slot * 32) !== i + 1) misplaced.push(i);
        }
        expect(misplaced).toEqual([]);
      }
    }
  });

  it("serve each proof from the tiles on the leaf's path", () => {
    const nodeCount = 2 * 70_000 - 1;
    const { shape, tiles } = fakeTree(nodeCount, TILE_HEIGHT);
    for (const leaf of [nodeCount - 1, 69_999, 100_000, 131_070, 131_071, 139_998]) {
      const proof = proofFromTiles(leaf, shape, tiles)!;
      expect(proof.map((b) => new DataView(b.buffer, b.byteOffset).getUint32(0) - 1)).toEqual(proofIndexes(leaf));
      expect(proofTiles(leaf, shape).length).toBeLessThanOrEqual(Math.ceil(17 / TILE_HEIGHT) + 1);
    }
  });

  it("report a missing tile instead of a wrong proof", () => {
    const { shape, tiles } = fakeTree(2 * 1000 - 1, TILE_HEIGHT);
    tiles.delete(proofTiles(1500, shape)[0]);
    expect(proofFromTiles(1500, shape, tiles)).toBeNull();
  });
});
