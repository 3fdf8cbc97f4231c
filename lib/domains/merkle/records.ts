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

  /** Copies record `i` to target[targetAt..): a byte loop, cheaper than a subarray and set() for one record. */
  copyTo(i: number, target: Uint8Array, targetAt: number): void {
    const block = this.block(i);
    const at = this.offset(i);
    for (let k = 0; k < this.width; k++) target[targetAt + k] = block[at + k];
  }

  /** Copies `count` records from `from` on to target[targetAt..) (one native copy per block). */
  readRange(from: number, count: number, target: Uint8Array, targetAt: number): void {
    this.eachRange(from, count, targetAt, (block, at, bytes, other) =>
      target.set(block.subarray(at, at + bytes), other),
    );
  }

  /** Overwrites `count` records from `from` on with source[sourceAt..). */
  writeRange(from: number, count: number, source: Uint8Array, sourceAt: number): void {
    this.eachRange(from, count, sourceAt, (block, at, bytes, other) =>
      block.set(source.subarray(other, other + bytes), at),
    );
  }

  /** Whether `count` records from `from` on equal other[otherAt..) (one native comparison per block). */
  rangeEquals(from: number, count: number, other: Uint8Array, otherAt: number): boolean {
    let equal = true;
    const view = Buffer.from(other.buffer, other.byteOffset, other.byteLength);
    this.eachRange(from, count, otherAt, (block, at, bytes, o) => {
      const mine = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
      equal &&= mine.compare(view, o, o + bytes, at, at + bytes) === 0;
    });
    return equal;
  }

  /** Calls `visit` for each block's part of records [from, from + count), with the matching offset in the other array. */
  private eachRange(
    from: number,
    count: number,
    otherAt: number,
    visit: (block: Uint8Array, at: number, bytes: number, otherAt: number) => void,
  ): void {
    for (let i = from, end = from + count; i < end; ) {
      const take = Math.min(end - i, BLOCK_RECORDS - (i & BLOCK_MASK));
      const bytes = take * this.width;
      visit(this.block(i), this.offset(i), bytes, otherAt);
      otherAt += bytes;
      i += take;
    }
  }

  equals(i: number, other: Uint8Array, otherAt: number): boolean {
    const block = this.block(i);
    const at = this.offset(i);
    for (let k = 0; k < this.width; k++) if (block[at + k] !== other[otherAt + k]) return false;
    return true;
  }
}

const TEXT_BLOCK_BYTES = 1 << 20;

/**
 * Short ASCII texts (decimal amounts, at most 255 bytes each) in one growable store, each prefixed by its length
 * in 1 MiB blocks: a million amounts take ~25 MB and no JS string each.
 */
export class TextList {
  private readonly blocks: Uint8Array[] = [];
  private readonly starts = new IntList();
  private end = TEXT_BLOCK_BYTES; // where the next text goes, as block · TEXT_BLOCK_BYTES + offset
  count = 0;

  /** Appends bytes[start..end) as text `count` (or replaces the last text when `index` is count - 1). */
  put(index: number, bytes: Uint8Array, start: number, end: number): void {
    if (index === this.count - 1) {
      this.end = this.starts.get(index);
      this.count--;
    }
    const length = end - start;
    if (
      (this.end % TEXT_BLOCK_BYTES) + 1 + length > TEXT_BLOCK_BYTES ||
      this.end >= this.blocks.length * TEXT_BLOCK_BYTES
    ) {
      this.blocks.push(new Uint8Array(TEXT_BLOCK_BYTES));
      this.end = (this.blocks.length - 1) * TEXT_BLOCK_BYTES;
    }
    const block = this.blocks[Math.floor(this.end / TEXT_BLOCK_BYTES)];
    let at = this.end % TEXT_BLOCK_BYTES;
    block[at++] = length;
    for (let k = start; k < end; k++) block[at++] = bytes[k];
    this.starts.set(this.count++, this.end);
    this.end += 1 + length;
  }

  putText(index: number, text: string): void {
    this.put(index, Buffer.from(text, "latin1"), 0, text.length);
  }

  /** Copies text `i` to target[targetAt..); returns where it ends there. */
  copyTo(i: number, target: Uint8Array, targetAt: number): number {
    const start = this.starts.get(i);
    const block = this.blocks[Math.floor(start / TEXT_BLOCK_BYTES)];
    const at = start % TEXT_BLOCK_BYTES;
    const length = block[at];
    for (let k = 1; k <= length; k++) target[targetAt++] = block[at + k];
    return targetAt;
  }

  get(i: number): string {
    const out = Buffer.alloc(256);
    return out.toString("latin1", 0, this.copyTo(i, out, 0));
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

  /** Sets value `i`; i may be count (an append). */
  set(i: number, value: number): void {
    if (i === this.count) this.push(value);
    else this.data[i] = value;
  }
}
