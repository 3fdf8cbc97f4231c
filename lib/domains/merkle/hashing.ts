// OpenZeppelin standard-v1 hashing for (address, uint256) leaves, on raw bytes:
//   leaf = keccak256(bytes.concat(keccak256(abi.encode(address, uint256))))
//   node = keccak256(sorted pair: the smaller 32-byte word first)
// Inputs are assembled straight in the hash module's memory (keccak.ts), so a hash costs two small copies.
import { batchInput, keccak32At, keccak64At, keccak64Batch, keccakMemory as mem } from "./keccak";

// Offsets in the hash module's memory.
const INPUT = 0; // 64 bytes
const INNER = 64; // 32 bytes
const OUTPUT = 96; // 32 bytes

function copyIn(source: Uint8Array, at: number, length: number, to: number): void {
  for (let k = 0; k < length; k++) mem[to + k] = source[at + k];
}

function copyOut(out: Uint8Array, outAt: number, from: number): void {
  for (let k = 0; k < 32; k++) out[outAt + k] = mem[from + k];
}

/** Writes `value` as 32 big-endian bytes at `out[at..at+32)`. */
export function writeUint256(value: bigint, out: Uint8Array, at: number): void {
  const hex = value.toString(16); // native, and far cheaper than 32 rounds of bigint shifts
  const digits = hex.length;
  out.fill(0, at, at + 32);
  for (let k = 0, end = at + 31; k < digits; k += 2, end--) {
    const lo = hex.charCodeAt(digits - 1 - k);
    const hi = k + 1 < digits ? hex.charCodeAt(digits - 2 - k) : 48;
    out[end] = (nibble(hi) << 4) | nibble(lo);
  }
}

const nibble = (c: number) => (c <= 57 ? c - 48 : c - 87); // 0-9, a-f

/** Writes the leaf hash of (account, amount) to `out[outAt..+32)`; the account is 20 bytes at account[accountAt]. */
export function leafHashInto(
  account: Uint8Array,
  accountAt: number,
  amount: bigint,
  out: Uint8Array,
  outAt: number,
): void {
  mem.fill(0, INPUT, INPUT + 12);
  copyIn(account, accountAt, 20, INPUT + 12);
  writeUint256(amount, mem, INPUT + 32);
  keccak64At(INPUT, INNER);
  keccak32At(INNER, OUTPUT);
  copyOut(out, outAt, OUTPUT);
}

/** -1, 0 or 1 as the 32-byte words at a[aAt] and b[bAt] compare as unsigned integers. */
export function compareWords(a: Uint8Array, aAt: number, b: Uint8Array, bAt: number): number {
  for (let k = 0; k < 32; k++) {
    const d = a[aAt + k] - b[bAt + k];
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

function hashPair(a: Uint8Array, aAt: number, b: Uint8Array, bAt: number): void {
  const aFirst = compareWords(a, aAt, b, bAt) <= 0;
  copyIn(a, aAt, 32, aFirst ? INPUT : INPUT + 32);
  copyIn(b, bAt, 32, aFirst ? INPUT + 32 : INPUT);
  keccak64At(INPUT, OUTPUT);
}

/** Writes the standard-v1 hash of the pair (a, b) to `out[outAt..+32)`. */
export function nodeHashInto(
  a: Uint8Array,
  aAt: number,
  b: Uint8Array,
  bAt: number,
  out: Uint8Array,
  outAt: number,
): void {
  hashPair(a, aAt, b, bAt);
  copyOut(out, outAt, OUTPUT);
}

const batchWords = new Uint32Array(batchInput.buffer, batchInput.byteOffset, batchInput.length / 4);

/**
 * The standard-v1 node hash of each of the first `count` batch inputs (keccak.ts), each a pair of 32-byte words:
 * a pair out of order is swapped in place first, then all are hashed in one call into batchOutput.
 */
export function nodeHashBatch(count: number): void {
  for (let j = 0, p = 0; j < count; j++, p += 64) {
    let k = 0;
    while (k < 32 && batchInput[p + k] === batchInput[p + 32 + k]) k++;
    if (k < 32 && batchInput[p + k] > batchInput[p + 32 + k]) {
      for (let w = p >> 2, end = w + 8; w < end; w++) {
        const t = batchWords[w];
        batchWords[w] = batchWords[w + 8];
        batchWords[w + 8] = t;
      }
    }
  }
  keccak64Batch(count);
}

/** The leaf hash of (account, amount) as 0x-hex: for tests and one-off checks. */
export function leafHashHex(account: string, amount: bigint): string {
  const out = new Uint8Array(32);
  leafHashInto(hexToBytes(account), 0, amount, out, 0);
  return bytesToHex(out);
}

/** Folds a proof onto a leaf hash the way MerkleProof.processProof does; returns the root as 0x-hex. */
export function processProof(leaf: Uint8Array, proof: readonly Uint8Array[]): string {
  const current = leaf.slice(0, 32);
  for (const sibling of proof) nodeHashInto(current, 0, sibling, 0, current, 0);
  return bytesToHex(current);
}

export function uint256Bytes(value: bigint): Uint8Array {
  const out = new Uint8Array(32);
  writeUint256(value, out, 0);
  return out;
}

export function hexToBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.replace(/^0x/i, ""), "hex"));
}

export function bytesToHex(bytes: Uint8Array): `0x${string}` {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`;
}
