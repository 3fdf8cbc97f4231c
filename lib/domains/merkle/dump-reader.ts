// Consumes the tokens of a tree upload body — { ...fields, tree: { format, leafEncoding, tree: [hex],
// values: [{ value: [address, amount], treeIndex }] } } — into compact arrays, in whatever key order the
// client wrote. Each value's leaf-hash input is laid out as it is read, and the leaves hashed and checked a
// batch at a time (leaf-checks.ts); amounts are kept as their decimal text's bytes (no
// bigint nor string per leaf when they are canonical decimal strings, as dumps write them). Problems are
// recorded (the first of each kind, with its path) rather than thrown, so the validator can report them in
// one fixed order; only limits stop the reading.
import { decimalWordInto, decodeHexBytesInto, decodeHexInto, parseAmount } from "./amounts";
import { writeUint256 } from "./hashing";
import type { JsonHandler } from "./json-stream";
import { LeafChecks } from "./leaf-checks";
import { ByteRecords, IntList, TextList } from "./records";

export type Issue = { path: string; message: string };

export class UploadLimitError extends Error {}

/** A top-level member that was an object or array (only `tree` may be one). */
export const NOT_SCALAR = Symbol("not a scalar");

// What a container is, by where it sits.
const ROOT = 0;
const TREE = 1;
const LEAF_ENCODING = 2;
const NODES = 3;
const VALUES = 4;
const VALUE = 5;
const PAIR = 6;
const SKIP = 7;

type Frame = { role: number; key: string; index: number };

export class DumpReader implements JsonHandler {
  /** Top-level members other than `tree`: scalars as read (numbers as their text), else NOT_SCALAR. */
  readonly fields: Record<string, unknown> = Object.create(null);
  readonly seen = new Set<string>();
  /** The top-level `tree` member has started: every member written before it has been read. */
  treeStarted = false;
  /** The node array has ended (dumps write it before the values, which are most of the reading left). */
  nodesEnded = false;
  format: unknown = undefined;
  readonly leafEncoding: unknown[] = [];
  readonly nodes = new ByteRecords(32);
  readonly accounts = new ByteRecords(20);
  readonly amounts = new TextList();
  readonly treeIndexes = new IntList();
  /** Shape problems (a member of the wrong type, a duplicated key). */
  structureIssue?: Issue;
  nodeIssue?: Issue;
  valueIssue?: Issue;

  private readonly frames: Frame[] = [];
  private depth = -1;
  // The value object being read.
  private account = false;
  private amountRead = false;
  private treeIndex: number | null = null;
  private valueSeen = 0; // bit 1: "value", bit 2: "treeIndex"

  /** Values read (the current one is number `values`). */
  private values = 0;
  private readonly leaves = new LeafChecks();

  constructor(private readonly maxLeaves: number) {}

  private get top(): Frame {
    return this.frames[this.depth];
  }

  private structure(path: string, message: string): void {
    this.structureIssue ??= { path, message };
  }

  /** Records a member of the tree object: a second occurrence or the wrong type is a shape problem. */
  private member(path: string, expected: string, ok: boolean, role: number): number {
    if (this.seen.has(path)) this.structure(path, "appears twice");
    this.seen.add(path);
    if (!ok) this.structure(path, `must be ${expected}`);
    return ok ? role : SKIP;
  }

  /** The role of what starts at the current slot of the enclosing frame (a container, or a scalar). */
  private slotRole(isContainer: boolean, isObject: boolean): number {
    if (this.depth < 0) {
      if (!isObject) this.structure("", "the body must be a JSON object");
      return isObject ? ROOT : SKIP;
    }
    const { role, key } = this.top;
    const isArray = isContainer && !isObject;
    switch (role) {
      case ROOT:
        if (key === "tree") {
          this.treeStarted = true;
          return this.member("tree", "an object (a StandardMerkleTree dump)", isObject, TREE);
        }
        if (isContainer) this.fields[key] = NOT_SCALAR;
        return SKIP;
      case TREE:
        if (key === "format") return this.member("tree.format", "a string", !isContainer, SKIP);
        if (key === "leafEncoding") return this.member("tree.leafEncoding", "an array", isArray, LEAF_ENCODING);
        if (key === "tree") return this.member("tree.tree", "an array of hex nodes", isArray, NODES);
        if (key === "values") return this.member("tree.values", "an array", isArray, VALUES);
        return SKIP;
      case VALUES:
        if (isObject) return VALUE;
        // Keep the indexes of later values right: a bad element still takes its place.
        this.startValue();
        this.valueProblem("", "must be an object { value, treeIndex }");
        this.endValue();
        return SKIP;
      case VALUE:
        if (key === "value") {
          this.valueSeen |= 1;
          if (!isArray) this.valueProblem(".value", "must be [address, amount]");
          return isArray ? PAIR : SKIP;
        }
        if (key === "treeIndex") {
          this.valueSeen |= 2;
          if (isContainer) this.valueProblem(".treeIndex", "must be a whole number");
        }
        return SKIP;
      case PAIR:
        if (isContainer) this.valueProblem(`.value.${this.top.index}`, "must be a string or number");
        this.top.index++;
        return SKIP;
      case NODES:
        if (isContainer) this.node(null);
        return SKIP;
      default:
        return SKIP;
    }
  }

  private push(role: number): void {
    const frame = (this.frames[++this.depth] ??= { role, key: "", index: 0 });
    frame.role = role;
    frame.key = "";
    frame.index = 0;
  }

  startObject(): void {
    const role = this.slotRole(true, true);
    if (role === VALUE) this.startValue();
    this.push(role);
  }

  startArray(): void {
    this.push(this.slotRole(true, false));
  }

  endObject(): void {
    if (this.top.role === VALUE) this.endValue();
    this.depth--;
  }

  endArray(): void {
    if (this.top.role === NODES) this.nodesEnded = true;
    this.depth--;
  }

  key(name: string): void {
    const frame = this.top;
    frame.key = name;
    if (frame.role === VALUE && name === "value" && this.valueSeen & 1) this.valueProblem(".value", "appears twice");
    if (frame.role === VALUE && name === "treeIndex" && this.valueSeen & 2)
      this.valueProblem(".treeIndex", "appears twice");
  }

  string(value: string): void {
    this.scalar(value, false);
  }

  number(raw: string): void {
    this.scalar(raw, true);
  }

  /** A plain whole number: a treeIndex without a string; elsewhere as number() takes its text. */
  integer(value: number): void {
    const frame = this.frames[this.depth];
    if (this.depth < 0 || frame.role !== VALUE || frame.key !== "treeIndex") {
      this.number(String(value));
      return;
    }
    this.slotRole(false, false);
    this.setTreeIndex(value);
  }

  literal(value: boolean | null): void {
    this.scalar(value, false);
  }

  private scalar(value: string | boolean | null, isNumber: boolean): void {
    this.slotRole(false, false);
    if (this.depth < 0) return;
    const { role, key, index } = this.top;
    switch (role) {
      case ROOT:
        if (key === "tree") return;
        if (key in this.fields) this.structure(key, "appears twice");
        this.fields[key] = value;
        return;
      case TREE:
        if (key === "format") this.format = value;
        return;
      case LEAF_ENCODING:
        this.leafEncoding.push(value);
        return;
      case NODES:
        this.node(value);
        return;
      case VALUE:
        if (key === "treeIndex") this.readTreeIndex(value, isNumber);
        return;
      case PAIR:
        this.pairMember(index - 1, value, isNumber);
        return;
    }
  }

  /** The hex members (nodes, accounts) as bytes: see JsonHandler.wantsBytes. */
  wantsBytes(): boolean {
    const frame = this.frames[this.depth];
    return (
      frame !== undefined && this.depth >= 0 && (frame.role === NODES || (frame.role === PAIR && frame.index <= 1))
    );
  }

  bytes(buf: Buffer, start: number, end: number): void {
    this.slotRole(false, false);
    if (this.top.role === NODES) {
      const i = this.nextNode();
      if (i >= 0 && !decodeHexBytesInto(buf, start, end, 32, this.nodes.block(i), this.nodes.offset(i)))
        this.badNode(i);
    } else if (this.top.index === 1) {
      const i = this.values;
      this.readAccount(decodeHexBytesInto(buf, start, end, 20, this.accounts.block(i), this.accounts.offset(i)));
    } else if (decimalWordInto(buf, start, end, this.leaves.inputs, this.leaves.inputAt(this.values) + 32)) {
      this.amounts.put(this.values, buf, start, end);
      this.amountRead = true;
    } else {
      this.pairMember(1, buf.toString("latin1", start, end), false);
    }
  }

  /** Once the upload is known to be bad, hashing the rest is wasted work. */
  private get hashing(): boolean {
    return !this.valueIssue && !this.nodeIssue && !this.structureIssue;
  }

  /** Whether value i's leaf hash is node `treeIndex` (its treeIndex, within the tree): for a fully read upload. */
  leafMatches(i: number, treeIndex: number): boolean {
    return this.leaves.matches(i, treeIndex, this.nodes);
  }

  /** Value i's leaf hash (for a message). */
  leafHash(i: number): Uint8Array {
    return this.leaves.hashOf(i, this.accounts, this.amounts);
  }

  end(): void {
    if (this.hashing) this.leaves.hash(this.values, this.treeIndexes, this.nodes);
  }

  private node(value: unknown): void {
    const i = this.nextNode();
    if (i >= 0 && (typeof value !== "string" || !decodeHexInto(value, 32, this.nodes.block(i), this.nodes.offset(i))))
      this.badNode(i);
  }

  /** Appends a node; its index, or -1 when a node is already known bad (the rest are not decoded). */
  private nextNode(): number {
    const i = this.nodes.append();
    if (i >= 2 * this.maxLeaves) throw new UploadLimitError(`tree.tree: at most ${2 * this.maxLeaves - 1} nodes`);
    return this.nodeIssue ? -1 : i;
  }

  private badNode(i: number): void {
    this.nodeProblem(i, "must be 0x followed by 64 hex digits");
  }

  private nodeProblem(index: number, message: string): void {
    this.nodeIssue ??= { path: `tree.tree.${index}`, message };
  }

  private valueProblem(suffix: string, message: string): void {
    this.valueIssue ??= { path: `tree.values.${this.values}${suffix}`, message };
  }

  private startValue(): void {
    if (this.values >= this.maxLeaves) throw new UploadLimitError(`tree.values: at most ${this.maxLeaves} leaves`);
    this.accounts.append();
    this.account = false;
    this.amountRead = false;
    this.treeIndex = null;
    this.valueSeen = 0;
  }

  private pairMember(index: number, value: unknown, isNumber: boolean): void {
    if (index === 0) {
      const i = this.values;
      this.readAccount(
        typeof value === "string" && decodeHexInto(value, 20, this.accounts.block(i), this.accounts.offset(i)),
      );
    } else if (index === 1) {
      const text = typeof value === "string" || isNumber ? String(value) : "";
      const amount = text ? parseAmount(text, isNumber) : null;
      this.amountRead = amount !== null;
      if (amount === null) this.valueProblem(".value.1", "must be a non-negative integer amount below 2^256");
      else {
        writeUint256(amount, this.leaves.inputs, this.leaves.inputAt(this.values) + 32);
        this.amounts.putText(this.values, amount.toString());
      }
    } else {
      this.valueProblem(".value", "must have exactly two members [address, amount]");
    }
  }

  private readAccount(decoded: boolean): void {
    this.account = decoded;
    if (!decoded) this.valueProblem(".value.0", "must be an address: 0x followed by 40 hex digits");
  }

  private readTreeIndex(value: unknown, isNumber: boolean): void {
    const text = typeof value === "string" || isNumber ? String(value) : "";
    this.setTreeIndex(/^\d{1,10}$/.test(text) ? Number(text) : -1);
  }

  private setTreeIndex(value: number): void {
    // Tree positions are int32 here (a tree of 2^30 leaves is far beyond MERKLE_MAX_LEAVES): a bigger
    // number must not wrap around into a valid position.
    this.treeIndex = value >= 0 && value <= 0x7fffffff ? value : null;
    if (this.treeIndex === null) this.valueProblem(".treeIndex", "must be a whole number below 2^31");
  }

  private endValue(): void {
    const i = this.values;
    if (!(this.valueSeen & 1)) this.valueProblem(".value", "is missing");
    else if (!this.account || !this.amountRead)
      this.valueProblem(".value", "must have exactly two members [address, amount]");
    if (!(this.valueSeen & 2)) this.valueProblem(".treeIndex", "is missing");
    if (this.amounts.count === i) this.amounts.putText(i, "0"); // no amount: the upload is refused anyway
    this.treeIndexes.push(this.treeIndex ?? -1);
    if (this.hashing) this.accounts.copyTo(i, this.leaves.inputs, this.leaves.inputAt(i) + 12);
    this.values++;
    if (this.hashing && this.leaves.full(this.values)) this.leaves.hash(this.values, this.treeIndexes, this.nodes);
  }
}
