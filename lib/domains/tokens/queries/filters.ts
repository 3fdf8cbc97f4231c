// The filters of the token lists, as one WHERE over `tokens as t`, each served by an index of the
// core migration. Search terms are classified so that no term makes Postgres read the whole table.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { DB } from "@/db/types";
import { BYTES32, isEvmAddress } from "@/lib/core/evm";

/**
 * How `q` is matched:
 * - `address`: a 20-byte hex address equals the contract or the pool address;
 * - `poolId`: a 32-byte hex id equals the (v4) pool id;
 * - `substring`: case-insensitive substring of name or symbol, through the trigram GIN indexes;
 * - `prefix`: name or symbol starts with the term, through the text_pattern_ops indexes. Used for terms
 *   without three consecutive letters or digits (one or two characters, "$$", "a b"), from which a
 *   trigram index can take nothing to look up and would read every entry.
 */
export type SearchTerm =
  | { kind: "address"; value: string }
  | { kind: "poolId"; value: string }
  | { kind: "substring"; value: string }
  | { kind: "prefix"; value: string };

export type TokenFilters = {
  q?: SearchTerm;
  fids?: number[];
  msgSender?: string;
  admin?: string;
  /** pool_address equals (20-byte address or 32-byte pool id, lowercase) */
  pool?: string;
  /** lowercase paired-token symbol; absent for `all` */
  pair?: string;
  /** lowercase social_context.interface */
  socialInterface?: string;
  /** deployed strictly after */
  deployedAfter?: Date;
  chainId?: number;
  champagne?: boolean;
  /** requested by one of the FIDs or deployed (msg_sender) from one of the lowercase addresses; none: no token */
  creators?: { fids: number[]; addresses: string[] };
  /** lowercase social_context.platform, any of */
  platforms?: string[];
  /** A condition on `t` that another domain owns (search-creator's trustedOnly: the users domain's trust lists). */
  condition?: TokenCondition;
};

const TRIGRAM_RUN = /[\p{L}\p{N}]{3}/u;

export function classifySearchTerm(raw: string): SearchTerm | undefined {
  const term = raw.trim();
  if (!term) return undefined;
  if (isEvmAddress(term)) return { kind: "address", value: term.toLowerCase() };
  if (BYTES32.test(term)) return { kind: "poolId", value: term.toLowerCase() };
  const lower = term.toLowerCase();
  return TRIGRAM_RUN.test(lower) ? { kind: "substring", value: lower } : { kind: "prefix", value: lower };
}

/**
 * The least string above every string that starts with `prefix`, in byte order (UTF-8 byte order is
 * code point order): the prefix with its last code point incremented. Null when there is none.
 */
export function prefixUpperBound(prefix: string): string | null {
  const points = Array.from(prefix);
  while (points.length) {
    let next = points.pop()!.codePointAt(0)! + 1;
    if (next === 0xd800) next = 0xe000; // no surrogates in UTF-8 text
    if (next <= 0x10ffff) return points.join("") + String.fromCodePoint(next);
  }
  return null;
}

/** LIKE treats % _ and \ specially; the term is matched literally. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

type Eb = ExpressionBuilder<DB & { t: DB["tokens"] }, "t">;
export type TokenCondition = (eb: Eb) => Expression<SqlBool>;

function creatorsCondition(eb: Eb, creators: NonNullable<TokenFilters["creators"]>): Expression<SqlBool> {
  const parts = [];
  if (creators.fids.length) parts.push(eb("t.requestor_fid", "in", creators.fids));
  if (creators.addresses.length) parts.push(eb("t.msg_sender", "in", creators.addresses));
  return parts.length ? eb.or(parts) : sql<SqlBool>`false`;
}

function searchCondition(eb: Eb, q: SearchTerm): Expression<SqlBool> {
  switch (q.kind) {
    case "address":
      return eb.or([eb("t.contract_address", "=", q.value), eb("t.pool_address", "=", q.value)]);
    case "poolId":
      return eb("t.pool_address", "=", q.value);
    case "substring": {
      const pattern = `%${escapeLike(q.value)}%`;
      return sql<SqlBool>`(lower(t.name) LIKE ${pattern} OR lower(t.symbol) LIKE ${pattern})`;
    }
    case "prefix": {
      // A byte-wise range (text_pattern_ops operators) rather than LIKE 'ab%': only the btree prefix
      // indexes serve it, where a LIKE could be planned on the trigram index, whose entries for one or
      // two letters cover most of the table.
      const above = prefixUpperBound(q.value);
      const inRange = (column: string) =>
        above === null
          ? sql`lower(${sql.ref(column)}) ~>=~ ${q.value}`
          : sql`(lower(${sql.ref(column)}) ~>=~ ${q.value} AND lower(${sql.ref(column)}) ~<~ ${above})`;
      return sql<SqlBool>`(${inRange("t.name")} OR ${inRange("t.symbol")})`;
    }
  }
}

export function hasFilters(f: TokenFilters): boolean {
  return Object.values(f).some((v) => v !== undefined && v !== false);
}

/** The conditions of `f`, ANDed (an empty list means every token). */
export function filterConditions(eb: Eb, f: TokenFilters): Expression<SqlBool>[] {
  const out: Expression<SqlBool>[] = [];
  if (f.q) out.push(searchCondition(eb, f.q));
  if (f.fids) out.push(f.fids.length ? eb("t.requestor_fid", "in", f.fids) : sql<SqlBool>`false`);
  if (f.msgSender) out.push(eb("t.msg_sender", "=", f.msgSender));
  if (f.admin) out.push(eb("t.admin", "=", f.admin));
  if (f.pool) out.push(eb("t.pool_address", "=", f.pool));
  if (f.pair) out.push(sql<SqlBool>`lower(t.pair) = ${f.pair}`);
  if (f.socialInterface) out.push(sql<SqlBool>`lower(t.social_context->>'interface') = ${f.socialInterface}`);
  if (f.deployedAfter) out.push(eb("t.deployed_at", ">", f.deployedAfter));
  if (f.chainId !== undefined) out.push(eb("t.chain_id", "=", f.chainId));
  if (f.champagne) out.push(sql<SqlBool>`(t.tags->>'champagne') = 'true'`);
  if (f.creators) out.push(creatorsCondition(eb, f.creators));
  if (f.platforms)
    out.push(
      f.platforms.length
        ? eb(sql<string>`lower(t.social_context->>'platform')`, "in", f.platforms)
        : sql<SqlBool>`false`,
    );
  if (f.condition) out.push(f.condition(eb));
  return out;
}
