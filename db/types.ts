// The database as Kysely sees it: one interface per domain, each beside the migrations that make it.
import type { CoreTables } from "./tables/core";
import type { ChainTables } from "./tables/chain";
import type { PresalesTables } from "./tables/presales";
import type { AirdropsTables } from "./tables/airdrops";
import type { MarketTables } from "./tables/market";
import type { LeaderboardTables } from "./tables/leaderboard";
import type { PretokensTables } from "./tables/pretokens";
import type { DeployTables } from "./tables/deploy";
import type { WebhooksTables } from "./tables/webhooks";
import type { CreatorsTables } from "./tables/creators";
// Augments ApiKeysTable (declaration merging), as tables/deploy.ts does.
import type {} from "./tables/partners";
import type { StreamTables } from "./tables/stream";

export interface DB
  extends CoreTables,
    ChainTables,
    PresalesTables,
    AirdropsTables,
    MarketTables,
    LeaderboardTables,
    PretokensTables,
    DeployTables,
    WebhooksTables,
    CreatorsTables,
    StreamTables {}
