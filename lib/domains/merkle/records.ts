// Growable arrays of fixed-width byte records kept in fixed-size blocks, so that growing a million-leaf
// tree never copies what it already holds (a doubling buffer would briefly hold two copies).
const BLOCK_SHIFT = 15;
const BLOCK_RECORDS = 1 << BLOCK_SHIFT;
const BLOCK_MASK = BLOCK_RECORDS - 1;

export class ByteRecords {
  private readonly blocks: Uint8Array[] = [];
  count = 0;

  constructor(readonly width: number) {}

  /** Appends a zero-filled record and returns its index. */
  append(): number {
    if ((this.count & BLOCK_MASK) === 0) this.blocks.push(new Uint8Array(BLOCK_RECORDS * this.width));
    return this.count++;
  }

  /** The block holding record `i`; its bytes start at `offset(i)`. */
  block(i: number): Uint8Array {
    return this.blocks[i >>> BLOCK_SHIFT];
  }

  offset(i: number): number {
    return (i & BLOCK_MASK) * this.width;
  }

  /** A copy of record `i`. */
  get(i: number): Uint8Array {
    const at = this.offset(i);
    return this.block(i).slice(at, at + this.width);
  }

  copyTo(i: number, target: Uint8Array, targetAt: number): void {
    const at = this.offset(i);
    target.set(this.block(i).subarray(at, at + this.width), targetAt);
  }

  equals(i: number, other: Uint8Array, otherAt: number): boolean {
    const block = this.block(i);
    const at = this.offset(i);
    for (let k = 0; k < this.width; k++) if (block[at + k] !== other[otherAt + k]) return false;
    return true;
  }
}

/** A growable Int32 array (tree indexes of the values). */
export class IntList {
  private data = new Int32Array(1024);
  count = 0;

  push(value: number): void {
    if (this.count === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.count++] = value;
  }

  get(i: number): number {
    return this.data[i];
  }

  set(i: number, value: number): void {
    this.data[i] = value;
  }
}
