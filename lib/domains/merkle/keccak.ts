// keccak256 for the two input sizes a standard-v1 Merkle tree hashes: 64 bytes (abi.encode(address,
// uint256), or a sorted pair of nodes) and 32 bytes (the second hash of a leaf). Both fit one sponge
// block, so the whole hash is one keccak-f[1600] permutation.
// Why our own: a million-leaf tree is three million hashes. @noble/hashes' keccak_256 measured ~16 us
// per 64-byte hash here, an unrolled JavaScript permutation on 32-bit halves ~2.6 us, and this
// WebAssembly one (64-bit lanes and a native rotate) about a quarter of that. The module is assembled
// below from the reference round description (theta, rho and pi, chi, iota; no binary blob in the
// repository), compiled once per process, and checked against @noble/hashes in
// tests/unit/merkle/keccak.test.ts.
//
// Memory (two 64 KiB pages, never grown): the caller writes input at offset 0 (64 bytes), the hash of
// input [0, 64) or [0, 32) lands where asked; round constants sit at ROUND_CONSTANTS. The batch functions
// hash up to BATCH inputs of 64 bytes at BATCH_INPUT into BATCH_OUTPUT in one call: a tree upload's three
// million hashes cost ~3,000 calls and two native copies per thousand, not a call and four byte loops each.

const RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];
const RC = [
  "0x0000000000000001",
  "0x0000000000008082",
  "0x800000000000808A",
  "0x8000000080008000",
  "0x000000000000808B",
  "0x0000000080000001",
  "0x8000000080008081",
  "0x8000000000008009",
  "0x000000000000008A",
  "0x0000000000000088",
  "0x0000000080008009",
  "0x000000008000000A",
  "0x000000008000808B",
  "0x800000000000008B",
  "0x8000000000008089",
  "0x8000000000008003",
  "0x8000000000008002",
  "0x8000000000000080",
  "0x000000000000800A",
  "0x800000008000000A",
  "0x8000000080008081",
  "0x8000000000008080",
  "0x0000000080000001",
  "0x8000000080008008",
].map(BigInt);
const ROUND_CONSTANTS = 1024;
/** Inputs per batch call. */
export const BATCH = 1024;
const BATCH_INPUT = 4096;
const BATCH_OUTPUT = BATCH_INPUT + 64 * BATCH;

// WebAssembly opcodes used below.
const GET = 0x20,
  SET = 0x21,
  TEE = 0x22,
  I32_CONST = 0x41,
  I64_CONST = 0x42,
  I64_LOAD = 0x29,
  I64_STORE = 0x37;
const I64_XOR = 0x85,
  I64_AND = 0x83,
  I64_ROTL = 0x89,
  I32_ADD = 0x6a,
  I32_SHL = 0x74,
  I32_SUB = 0x6b,
  I32_LT_U = 0x49;
const LOOP = 0x03,
  CALL = 0x10,
  BR_IF = 0x0d,
  END = 0x0b,
  VOID = 0x40,
  I32 = 0x7f,
  I64 = 0x7e;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
}

function sleb(value: bigint): number[] {
  let v = BigInt.asIntN(64, value);
  const out: number[] = [];
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    if ((v === 0n && !(byte & 0x40)) || (v === -1n && byte & 0x40)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

const vec = (items: number[][]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, bytes: number[]) => [id, ...uleb(bytes.length), ...bytes];
const name = (s: string) => vec([...Buffer.from(s)].map((b) => [b]));

/** The body of f(inPtr, outPtr): keccak256 of `inputBytes` bytes at inPtr, 32 bytes written at outPtr. */
function hashFunction(inputBytes: 32 | 64): number[] {
  // Locals: 0 inPtr, 1 outPtr, 2 round (i32); then i64 lanes a[25], b[25], c[5], d[5].
  const a = (i: number) => 3 + i,
    b = (i: number) => 28 + i,
    c = (i: number) => 53 + i,
    d = (i: number) => 58 + i;
  const round = 2;
  const code: number[] = [];
  const get = (i: number) => code.push(GET, ...uleb(i));
  const set = (i: number) => code.push(SET, ...uleb(i));
  const words = inputBytes / 8;
  for (let i = 0; i < 25; i++) {
    if (i < words) get(0), code.push(I64_LOAD, 3, ...uleb(8 * i));
    else code.push(I64_CONST, ...sleb(i === words ? 1n : 0n)); // 0x01 padding right after the input
    if (i === 16) code.push(I64_CONST, ...sleb(1n << 63n), I64_XOR); // final padding bit of the 136-byte block
    set(a(i));
  }
  code.push(I32_CONST, 0), set(round);
  code.push(LOOP, VOID);
  for (let x = 0; x < 5; x++) {
    get(a(x));
    for (let y = 1; y < 5; y++) get(a(x + 5 * y)), code.push(I64_XOR);
    set(c(x));
  }
  for (let x = 0; x < 5; x++) {
    get(c((x + 4) % 5)), get(c((x + 1) % 5)), code.push(I64_CONST, 1, I64_ROTL, I64_XOR), set(d(x));
  }
  for (let x = 0; x < 5; x++) {
    for (let y = 0; y < 5; y++) {
      const i = x + 5 * y;
      get(a(i)), get(d(x)), code.push(I64_XOR);
      if (RHO[i]) code.push(I64_CONST, ...sleb(BigInt(RHO[i])), I64_ROTL);
      set(b(y + 5 * ((2 * x + 3 * y) % 5)));
    }
  }
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) {
      get(b(x + 5 * y)), get(b(((x + 1) % 5) + 5 * y)), code.push(I64_CONST, 0x7f, I64_XOR); // ~b[x+1]
      get(b(((x + 2) % 5) + 5 * y)), code.push(I64_AND, I64_XOR), set(a(x + 5 * y));
    }
  }
  get(a(0)), get(round), code.push(I32_CONST, 3, I32_SHL, I64_LOAD, 3, ...uleb(ROUND_CONSTANTS), I64_XOR), set(a(0));
  get(round), code.push(I32_CONST, 1, I32_ADD, TEE, ...uleb(round), I32_CONST, 24, I32_LT_U, BR_IF, 0, END);
  for (let i = 0; i < 4; i++) get(1), get(a(i)), code.push(I64_STORE, 3, ...uleb(8 * i));
  code.push(END);
  const body = [
    ...vec([
      [...uleb(1), I32],
      [...uleb(60), I64],
    ]),
    ...code,
  ];
  return [...uleb(body.length), ...body];
}

/**
 * The body of f(inPtr, outPtr, count), count >= 1: for each 64-byte input at inPtr + 64·j, 32 bytes at
 * outPtr + 32·j. `leaf`: keccak256(keccak256(input)) (the leaf hash; the inner hash overwrites the input's
 * head), else keccak256(input). Functions 0 and 1 are keccak32 and keccak64.
 */
function batchFunction(leaf: boolean): number[] {
  const code = [LOOP, VOID];
  if (leaf) code.push(GET, 0, GET, 0, CALL, 1, GET, 0, GET, 1, CALL, 0);
  else code.push(GET, 0, GET, 1, CALL, 1);
  code.push(GET, 0, I32_CONST, ...sleb(64n), I32_ADD, SET, 0);
  code.push(GET, 1, I32_CONST, ...sleb(32n), I32_ADD, SET, 1);
  code.push(GET, 2, I32_CONST, 1, I32_SUB, TEE, 2, BR_IF, 0, END, END);
  const body = [...vec([]), ...code];
  return [...uleb(body.length), ...body];
}

function instantiate() {
  const bytes = new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(
      1,
      vec([
        [0x60, ...vec([[I32], [I32]]), ...vec([])], // type 0: (i32, i32) -> ()
        [0x60, ...vec([[I32], [I32], [I32]]), ...vec([])], // type 1: (i32, i32, i32) -> ()
      ]),
    ),
    ...section(3, vec([[0], [0], [1], [1]])), // functions 0 and 1 of type 0, 2 and 3 of type 1
    ...section(5, vec([[0x00, 2]])), // two pages
    ...section(
      7,
      vec([
        [...name("keccak32"), 0x00, 0],
        [...name("keccak64"), 0x00, 1],
        [...name("keccak64Batch"), 0x00, 2],
        [...name("leafBatch"), 0x00, 3],
        [...name("memory"), 0x02, 0],
      ]),
    ),
    ...section(10, vec([hashFunction(32), hashFunction(64), batchFunction(false), batchFunction(true)])),
  ]);
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
  const exports = instance.exports as {
    keccak32(i: number, o: number): void;
    keccak64(i: number, o: number): void;
    keccak64Batch(i: number, o: number, count: number): void;
    leafBatch(i: number, o: number, count: number): void;
    memory: WebAssembly.Memory;
  };
  const view = new DataView(exports.memory.buffer);
  RC.forEach((v, r) => {
    view.setBigUint64(ROUND_CONSTANTS + 8 * r, v, true);
  });
  return { ...exports, memory: new Uint8Array(exports.memory.buffer) };
}

const wasm = instantiate();

/** Working memory of the hash functions: offsets [0, 1024) are free for inputs and outputs. */
export const keccakMemory = wasm.memory;
/** keccak256 of keccakMemory[inAt, inAt + 64) written to keccakMemory[outAt, outAt + 32). */
export const keccak64At: (inAt: number, outAt: number) => void = wasm.keccak64;
/** keccak256 of keccakMemory[inAt, inAt + 32) written to keccakMemory[outAt, outAt + 32). */
export const keccak32At: (inAt: number, outAt: number) => void = wasm.keccak32;

/** Where batch inputs go (BATCH × 64 bytes) and their hashes land (BATCH × 32 bytes). */
export const batchInput = wasm.memory.subarray(BATCH_INPUT, BATCH_INPUT + 64 * BATCH);
export const batchOutput = wasm.memory.subarray(BATCH_OUTPUT, BATCH_OUTPUT + 32 * BATCH);
/** keccak256 of each of the first `count` batch inputs (1..BATCH) into batchOutput. */
export const keccak64Batch = (count: number): void => wasm.keccak64Batch(BATCH_INPUT, BATCH_OUTPUT, count);
/** keccak256(keccak256(input)) of each of the first `count` batch inputs into batchOutput (it overwrites the inputs). */
export const leafHashBatch = (count: number): void => wasm.leafBatch(BATCH_INPUT, BATCH_OUTPUT, count);

/** keccak256 of `input[at, at + length)` (length 32 or 64) written to `out[outAt, outAt + 32)`. */
export function keccak256Into(input: Uint8Array, at: number, length: 32 | 64, out: Uint8Array, outAt: number): void {
  keccakMemory.set(input.subarray(at, at + length), 0);
  (length === 64 ? keccak64At : keccak32At)(0, 64);
  out.set(keccakMemory.subarray(64, 96), outAt);
}

/** keccak256 of 32 or 64 bytes, as a new array. */
export function keccak256(input: Uint8Array): Uint8Array {
  if (input.length !== 32 && input.length !== 64) throw new Error("keccak256 here takes 32 or 64 bytes");
  const out = new Uint8Array(32);
  keccak256Into(input, 0, input.length, out, 0);
  return out;
}
