// Ordering a page of aggregator pools, and reading token addresses from GeckoTerminal relationship ids.
import { describe, expect, it } from "vitest";
import { orderPools } from "@/lib/domains/tokens/trending";
import { relationshipAddress, type GeckoPool } from "@/lib/platform/market-data/geckoterminal";

const pool = (address: string, h24: string | null, volume: string | null, buys: number | null): GeckoPool => ({
  id: `base_${address}`,
  attributes: {
    address,
    base_token_price_usd: null,
    quote_token_price_usd: null,
    fdv_usd: null,
    market_cap_usd: null,
    reserve_in_usd: null,
    price_change_percentage: { h24 },
    transactions: buys === null ? {} : { h24: { buys, sells: 1 } },
    volume_usd: { h24: volume },
  },
  relationships: null,
});

const pools = [
  pool("0xa", "5", "10", 3),
  pool("0xb", null, "30", null),
  pool("0xc", "-2", null, 9),
  pool("0xd", "5", "20", 1),
];
const order = (o: string) => orderPools(pools, o).map((p) => p.attributes.address);

describe("orderPools", () => {
  it("keeps the aggregator's ranking for <window>_trending", () =>
    expect(order("h24_trending")).toEqual(["0xa", "0xb", "0xc", "0xd"]));
  it("sorts by price change, stable on ties, missing values last", () => {
    expect(order("h24_price_change_percentage_desc")).toEqual(["0xa", "0xd", "0xc", "0xb"]);
    expect(order("h24_price_change_percentage_asc")).toEqual(["0xc", "0xa", "0xd", "0xb"]);
  });
  it("sorts by volume and by buys + sells", () => {
    expect(order("h24_volume_usd_desc")).toEqual(["0xb", "0xd", "0xa", "0xc"]);
    expect(order("h24_tx_count_asc")).toEqual(["0xd", "0xa", "0xc", "0xb"]);
  });
});

describe("relationshipAddress", () => {
  it.each([
    ["base_0xabc", "0xabc"],
    ["polygon_pos_0xdef", "0xdef"],
    ["solana_So11111111111111111111111111111111111111112", "So11111111111111111111111111111111111111112"],
    ["nounderscore", null],
    [null, null],
  ])("%s", (id, expected) => expect(relationshipAddress(id)).toBe(expected));
});
