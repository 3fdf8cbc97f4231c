// Builds a standard-v1 tree of (address, uint256) leaves with our own hashing, laid out exactly as
// StandardMerkleTree.of(values, ["address", "uint256"]) lays it out (leaves sorted by hash, placed from
// the end of the array), so its dump() equals the library's. ~100x faster than the library at 100k leaves;
// tests and the benchmark use it to make big trees, and it can compute an airdrop root for a deploy.
import { bytesToHex, compareWords, leafHashInto, nodeHashInto } from "./hashing";
import { decodeHexInto } from "./amounts";

export type StandardDump = {
  format: "standard-v1";
  leafEncoding: ["address", "uint256"];
  tree: `0x${string}`[];
  values: { value: [string, string]; treeIndex: number }[];
};

export function buildStandardTree(values: readonly (readonly [string, bigint | string | number])[]): {
  root: `0x${string}`;
  dump: StandardDump;
} {
  const n = values.length;
  if (n === 0) throw new Error("a tree needs at least one leaf");
  const hashes = new Uint8Array(32 * n);
  const account = new Uint8Array(20);
  values.forEach(([address, amount], i) => {
    if (!decodeHexInto(address, 20, account, 0)) throw new Error(`value ${i}: not an address`);
    leafHashInto(account, 0, BigInt(amount), hashes, 32 * i);
  });
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => compareWords(hashes, 32 * a, hashes, 32 * b));
  const length = 2 * n - 1;
  const nodes = new Uint8Array(32 * length);
  const treeIndex = new Array<number>(n);
  order.forEach((valueIndex, leafIndex) => {
    const at = length - 1 - leafIndex;
    nodes.set(hashes.subarray(32 * valueIndex, 32 * valueIndex + 32), 32 * at);
    treeIndex[valueIndex] = at;
  });
  for (let i = length - 1 - n; i >= 0; i--)
    nodeHashInto(nodes, 32 * (2 * i + 1), nodes, 32 * (2 * i + 2), nodes, 32 * i);
  const tree = Array.from({ length }, (_, i) => bytesToHex(nodes.subarray(32 * i, 32 * i + 32)));
  return {
    root: tree[0],
    dump: {
      format: "standard-v1",
      leafEncoding: ["address", "uint256"],
      tree,
      values: values.map(([address, amount], i) => ({
        value: [address, BigInt(amount).toString()],
        treeIndex: treeIndex[i],
      })),
    },
  };
}
