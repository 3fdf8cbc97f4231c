// Checks a read upload in one fixed order and names the first bad member, leaf or node:
//   format, leafEncoding, value syntax, node syntax (400), then tree size, treeIndex of each value, the
//   leaf at each treeIndex, every internal node against its children (bottom-up, so the first bad node
//   named is the one whose children are right), and finally tree[0] against merkleRoot (422).
// Nothing is stored before this passes.
import { badRequest, unprocessable, type HttpError } from "@/lib/core/errors";
import type { DumpReader, Issue } from "./dump-reader";
import { bytesToHex, nodeHashBatch } from "./hashing";
import { BATCH, batchInput, batchOutput } from "./keccak";
import type { ByteRecords, IntList, TextList } from "./records";

export type ValidTree = {
  root: Uint8Array;
  leafCount: number;
  nodes: ByteRecords;
  accounts: ByteRecords;
  /** Canonical decimal text of each value's amount. */
  amounts: TextList;
  treeIndexes: IntList;
};

const invalid = (issue: Issue): HttpError =>
  badRequest(issue.path ? `${issue.path}: ${issue.message}` : issue.message, [{ in: "body", ...issue }]);
const inconsistent = (issue: Issue): HttpError =>
  unprocessable(`${issue.path}: ${issue.message}`, [{ in: "body", ...issue }]);

function checkShape(dump: DumpReader): void {
  if (dump.structureIssue) throw invalid(dump.structureIssue);
  for (const [path, name] of [
    ["tree", "a StandardMerkleTree dump"],
    ["tree.tree", "the node array"],
    ["tree.values", "the values array"],
  ]) {
    if (!dump.seen.has(path)) throw invalid({ path, message: `is required (${name})` });
  }
  if (dump.format !== "standard-v1") throw invalid({ path: "tree.format", message: "must be standard-v1" });
  const encoding = dump.leafEncoding;
  if (encoding.length !== 2 || encoding[0] !== "address" || encoding[1] !== "uint256") {
    throw invalid({ path: "tree.leafEncoding", message: 'must be ["address","uint256"]' });
  }
  if (dump.valueIssue) throw invalid(dump.valueIssue);
  if (dump.nodeIssue) throw invalid(dump.nodeIssue);
}

function checkLeaves(dump: DumpReader, n: number): void {
  const taken = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const treeIndex = dump.treeIndexes.get(i);
    if (treeIndex < n - 1 || treeIndex > 2 * n - 2) {
      throw inconsistent({
        path: `tree.values.${i}.treeIndex`,
        message: `${treeIndex} is not a leaf position (leaves are ${n - 1} to ${2 * n - 2})`,
      });
    }
    if (taken[treeIndex - (n - 1)]++) {
      throw inconsistent({
        path: `tree.values.${i}.treeIndex`,
        message: `${treeIndex} is already the position of an earlier value`,
      });
    }
    if (!dump.leafMatches(i, treeIndex)) {
      throw inconsistent({
        path: `tree.values.${i}`,
        message: `its leaf hash ${bytesToHex(dump.leafHash(i))} is not tree.tree.${treeIndex}`,
      });
    }
  }
}

/**
 * Internal nodes (0..n-2) in batches from the bottom up: parents [lo, hi) have the consecutive children
 * [2lo+1, 2hi+1), copied as pairs into the hash module, hashed in one call and compared with the parents at once.
 */
function checkNodes(nodes: ByteRecords, n: number): void {
  for (let hi = n - 1; hi > 0; ) {
    const lo = Math.max(0, hi - BATCH);
    const count = hi - lo;
    nodes.readRange(2 * lo + 1, 2 * count, batchInput, 0);
    nodeHashBatch(count);
    if (!nodes.rangeEquals(lo, count, batchOutput, 0)) {
      for (let k = hi - 1; k >= lo; k--) {
        const at = 32 * (k - lo);
        if (nodes.equals(k, batchOutput, at)) continue;
        const l = 2 * k + 1;
        throw inconsistent({
          path: `tree.tree.${k}`,
          message: `is not the hash of its children tree.tree.${l} and tree.tree.${l + 1} (${bytesToHex(batchOutput.subarray(at, at + 32))})`,
        });
      }
    }
    hi = lo;
  }
}

/**
 * Whether the nodes read so far are a whole tree whose every internal node is the hash of its children and whose
 * root is `merkleRoot`: asked as soon as a dump's node array ends, so that its tiles can be stored while its values
 * are still being read. When it is, validateDump need not check the nodes again.
 */
export function nodesFormTree(dump: DumpReader, merkleRoot: string): boolean {
  const count = dump.nodes.count;
  if (dump.structureIssue || dump.nodeIssue || count % 2 === 0) return false;
  try {
    checkNodes(dump.nodes, (count + 1) / 2);
  } catch {
    return false;
  }
  return bytesToHex(dump.nodes.get(0)) === merkleRoot.toLowerCase();
}

/**
 * Validates a fully read upload against the client's merkleRoot (already a 0x-hex bytes32). `nodesChecked`: the
 * nodes were found a tree of this root by nodesFormTree when they ended (and none were read after).
 */
export function validateDump(dump: DumpReader, merkleRoot: string, nodesChecked = false): ValidTree {
  checkShape(dump);
  const n = dump.amounts.count;
  if (n === 0) throw inconsistent({ path: "tree.values", message: "is empty: a tree needs at least one leaf" });
  if (dump.nodes.count !== 2 * n - 1) {
    throw inconsistent({
      path: "tree.tree",
      message: `has ${dump.nodes.count} nodes; ${n} values make a tree of ${2 * n - 1}`,
    });
  }
  checkLeaves(dump, n);
  if (!nodesChecked) checkNodes(dump.nodes, n);
  const root = dump.nodes.get(0);
  if (bytesToHex(root) !== merkleRoot.toLowerCase()) {
    throw inconsistent({
      path: "merkleRoot",
      message: `does not equal the tree's root tree.tree.0 (${bytesToHex(root)})`,
    });
  }
  return {
    root,
    leafCount: n,
    nodes: dump.nodes,
    accounts: dump.accounts,
    amounts: dump.amounts,
    treeIndexes: dump.treeIndexes,
  };
}
