// The leaves of an upload hashed as they are read: each value's leaf-hash input (abi.encode(address, uint256): 12
// zero bytes, the account, the amount's 32-byte word) is laid out as it is read, and a batch of BATCH is hashed in
// one call into the WebAssembly keccak (keccak.ts). Each leaf is then checked against the node at its treeIndex
// when that node was already read (dumps write the tree before the values), so its hash need not be kept;
// otherwise (values written first) the hash is kept and checked once the whole upload is read.
import { leafHashInto } from "./hashing";
import { BATCH, batchInput, batchOutput, leafHashBatch } from "./keccak";
import { ByteRecords, IntList, type TextList } from "./records";

const DIFFERS = 0;
const MATCHES = 1;
const KEPT = 2;

export class LeafChecks {
  /** Leaf-hash inputs of the values not hashed yet (values `hashed`.. in order), 64 bytes each. */
  readonly inputs = new Uint8Array(64 * BATCH);
  private hashed = 0;
  /** Per value: DIFFERS, MATCHES or KEPT. Only kept hashes take memory (none in the library's key order). */
  private readonly checks = new IntList();
  private readonly kept = new ByteRecords(32);

  /** Where value `value`'s input sits in `inputs` (a scratch slot once the values are no longer hashed). */
  inputAt(value: number): number {
    const j = value - this.hashed;
    return j < BATCH ? 64 * j : 0;
  }

  /** Whether `values` values read make a full batch to hash. */
  full(values: number): boolean {
    return values - this.hashed === BATCH;
  }

  /** Hashes the inputs of values up to `values` and checks each against its node, or keeps it. */
  hash(values: number, treeIndexes: IntList, nodes: ByteRecords): void {
    const count = values - this.hashed;
    if (count === 0) return;
    batchInput.set(this.inputs.subarray(0, 64 * count));
    leafHashBatch(count);
    for (let j = 0; j < count; j++) {
      const i = this.hashed + j;
      const node = treeIndexes.get(i);
      if (node < nodes.count) {
        this.checks.push(nodes.equals(node, batchOutput, 32 * j) ? MATCHES : DIFFERS);
      } else {
        while (this.kept.count <= i) this.kept.append();
        this.kept.writeRange(i, 1, batchOutput, 32 * j);
        this.checks.push(KEPT);
      }
    }
    this.hashed = values;
  }

  /** Whether value i's leaf hash is node `treeIndex` (its treeIndex, within the tree), every value hashed. */
  matches(i: number, treeIndex: number, nodes: ByteRecords): boolean {
    const check = this.checks.get(i);
    if (check !== KEPT) return check === MATCHES;
    return nodes.equals(treeIndex, this.kept.block(i), this.kept.offset(i));
  }

  /** Value i's leaf hash, for a message: a hash checked while reading was not kept, so it is computed again. */
  hashOf(i: number, accounts: ByteRecords, amounts: TextList): Uint8Array {
    if (this.checks.get(i) === KEPT) return this.kept.get(i);
    const out = new Uint8Array(32);
    leafHashInto(accounts.block(i), accounts.offset(i), BigInt(amounts.get(i)), out, 0);
    return out;
  }
}
