// What the token and creator pages read on the server, before their client components load: whether the token
// exists (a 404 otherwise), on which chains, and the figures their titles, descriptions and share cards show.
import { cache } from "react";
import { isEvmAddress } from "@/lib/core/evm";
import { marketOf, type TokenMarket, toMarket, toTokenObject } from "@/lib/domains/tokens/serialize";
import { type PageRow, tokenRowByAddress, tokenRows } from "@/lib/domains/tokens/service";
import { creatorTokenFilters } from "@/lib/domains/creators/tokens";

export type TokenSummary = {
  address: string;
  chainId: number;
  name: string;
  symbol: string;
  description: string | null;
  market: TokenMarket | null;
};

const ADDRESS = /^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/;

export const isTokenAddress = (address: string) => ADDRESS.test(address);

function summaryOf(row: PageRow): TokenSummary {
  const metadata = (row.metadata ?? {}) as { description?: unknown };
  return {
    address: toTokenObject(row).contract_address,
    chainId: row.chain_id,
    name: row.name,
    symbol: row.symbol,
    description: typeof metadata.description === "string" ? metadata.description : null,
    market: toMarket(marketOf(row)),
  };
}

/**
 * The token at `address` on each chain it is indexed on (the list's order: newest first); none: unknown. Read
 * once per request, however many of the page's parts (metadata, page) ask.
 */
export const tokensAt = cache(async (address: string): Promise<TokenSummary[]> => {
  if (!isTokenAddress(address)) return [];
  if (isEvmAddress(address)) {
    const value = address.toLowerCase();
    const rows = await tokenRows({ filters: { q: { kind: "address", value } }, limit: 20, includeMarket: true });
    return rows.filter((row) => row.contract_address === value).map(summaryOf);
  }
  // A Solana mint: one row (no market columns).
  const row = await tokenRowByAddress(address);
  return row ? [summaryOf({ ...row, sort_value: null, m_token_id: null } as PageRow)] : [];
});

/** The one token a page shows: on `chainId` when given, else the first found. */
export function pick(found: TokenSummary[], chainId?: number): TokenSummary | undefined {
  return chainId === undefined ? found[0] : found.find((t) => t.chainId === chainId);
}

export const CREATOR_PAGE_SIZE = 20;
/** The deepest page of a creator's tokens shown (an offset, like search-creator's bound). */
export const MAX_CREATOR_PAGE = 500;

/** A page of the creator's tokens (deployed by its wallets or requested by its profile), newest first. */
export async function creatorTokenPage(creators: { fids: number[]; addresses: string[] }, page: number) {
  const rows = await tokenRows({
    filters: creatorTokenFilters({ fids: creators.fids, addresses: creators.addresses.map((a) => a.toLowerCase()) }),
    limit: CREATOR_PAGE_SIZE,
    offset: (page - 1) * CREATOR_PAGE_SIZE,
    includeMarket: true,
  });
  return rows.map((row) => toTokenObject(row, { market: toMarket(marketOf(row)) }));
}
