// Row types of the chain domain's tables (its migrations in db/migrations/).
export type ChainTables = {}
