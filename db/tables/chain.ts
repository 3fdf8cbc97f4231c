// Row types of the chain domain's tables (its migrations in db/migrations/).
// No tables yet: an object type without members, so that `interface DB` can extend it.
export type ChainTables = Record<never, never>;
