// Row types of the market domain's tables (its migrations in db/migrations/).
// No tables yet: an object type without members, so that `interface DB` can extend it.
export type MarketTables = Record<never, never>;
