// The filters of the token lists, as one WHERE over `tokens as t`, each served by an index of the
// core migration. Search terms are classified so that no term makes Postgres read the whole table.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { DB } from "@/db/types";
import { BYTES32, isEvmAddress } from "@/lib/core/evm";
import { searchFold } from "@/lib/domains/users/search-fold";

/**
 * How `q` is matched:
 * - `address`: a 20-byte hex address equals the contract or the pool address;
 * - `poolId`: a 32-byte hex id equals the (v4) pool id;
 * - `substring`: substring of name or symbol, both folded (searchFold), through the trigram GIN indexes;
 * - `prefix`: name or symbol starts with the term, both folded, through the text_pattern_ops indexes. Used for
 *   terms without three consecutive letters or digits (one or two characters, "$$", "a b"), from which a
 *   trigram index can take nothing to look up and would read every entry.
 * The value of `substring` and `prefix` is the term in NFKC, not yet lowercased: its case is folded by SQL.
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
  // NFKC before anything else: a fullwidth address is an address, a fullwidth ％ a wildcard to escape.
  const term = raw.normalize("NFKC").trim();
  if (!term) return undefined;
  if (isEvmAddress(term)) return { kind: "address", value: term.toLowerCase() };
  if (BYTES32.test(term)) return { kind: "poolId", value: term.toLowerCase() };
  return TRIGRAM_RUN.test(term) ? { kind: "substring", value: term } : { kind: "prefix", value: term };
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

/** A searched column as its search index holds it. */
const folded = (column: "t.name" | "t.symbol") => searchFold(sql.ref(column));

function searchCondition(eb: Eb, q: SearchTerm): Expression<SqlBool> {
  switch (q.kind) {
    case "address":
      return eb.or([eb("t.contract_address", "=", q.value), eb("t.pool_address", "=", q.value)]);
    case "poolId":
      return eb("t.pool_address", "=", q.value);
    case "substring": {
      const pattern = searchFold(sql.val(`%${escapeLike(q.value)}%`));
      return sql<SqlBool>`(${folded("t.name")} LIKE ${pattern} OR ${folded("t.symbol")} LIKE ${pattern})`;
    }
    case "prefix": {
      // ^@ (starts_with) rather than LIKE 'ab%': only the btree prefix indexes serve it (PostgreSQL turns it into
      // their byte-wise range), where a LIKE could be planned on the trigram index, whose entries for one or two
      // letters cover most of the table.
      const term = searchFold(sql.val(q.value));
      return sql<SqlBool>`(${folded("t.name")} ^@ ${term} OR ${folded("t.symbol")} ^@ ${term})`;
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
