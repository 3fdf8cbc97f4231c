// Row types of the market domain's tables (its migrations in db/migrations/).
export type MarketTables = {}
