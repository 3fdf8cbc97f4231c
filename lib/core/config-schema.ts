// What each variable of the environment is: its type, its bounds and its default, as one zod schema. config.ts reads
// the environment through it; config-production.ts says which variables a production server cannot do without.
import { z } from "zod";
import { ADDRESS_TEXT, EVM_ADDRESS } from "./evm";
import { zBool } from "./input";

/** A comma-separated list of items of one pattern, spaces allowed around them, or nothing. */
const listOf = (item: string) => new RegExp(`^\\s*(${item}\\s*(,\\s*${item}\\s*)*)?$`);
const CHAIN_ADDRESS_PAIRS = listOf(`\\d+:${ADDRESS_TEXT}`);

const optionalUrl = z.string().url().optional();
/** A host name, with a port at most: what Vercel's URL variables hold. */
const HOST = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/;
const unsetWhenEmpty = <T extends z.ZodType>(inner: T) =>
  z.preprocess((v) => (v === "" ? undefined : v), inner.optional());
const csvInts = z
  .string()
  .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, "a comma-separated list of positive integers")
  .transform((v) => v.split(",").map((s) => Number(s.trim())));

/** Where PGlite keeps its files when DATABASE_URL is unset (dev/cli/dist-dir.ts builds `.next` for it). */
/** Seconds between runs of a scheduled job: whole minutes that divide an hour, or whole hours that divide a day. */
const cronPeriodSeconds = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .refine(
      (v) => (v >= 60 && v % 60 === 0 && 3600 % v === 0) || (v >= 3600 && v % 3600 === 0 && 86_400 % v === 0),
      "must divide an hour in whole minutes or a day in whole hours (a cron period)",
    )
    .default(fallback);

export const DEFAULT_DATA_DIR = ".data";

export const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  PUBLIC_BASE_URL: optionalUrl,
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  // OpenTelemetry (docs/telemetry.md): traces and metrics go over OTLP/HTTP when the endpoint is set; unset, no SDK runs.
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(["http/protobuf", "http/json"]).default("http/protobuf"),
  OTEL_SERVICE_NAME: z.string().min(1).default("token-launch-service"),
  OTEL_METRIC_EXPORT_INTERVAL: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  OTEL_SDK_DISABLED: zBool.default(false),

  // Postgres: PGlite under DATA_DIR when DATABASE_URL is unset.
  DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  DATABASE_DRIVER: z.enum(["pg", "neon"]).default("pg"),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /** The neon driver's WebSocket proxy (ws:// or wss://) for a Postgres that is not Neon's; unset: Neon's own. */
  NEON_WS_PROXY: z
    .string()
    .regex(/^wss?:\/\/[^?#\s]+$/, "a ws:// or wss:// URL without query or fragment")
    .optional(),
  STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  SEARCH_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  /**
   * Connections of a pool of its own for token searches, whose sessions carry the search's settings (db/index.ts):
   * a search then needs no transaction. 0: searches run in a transaction of their own on the main pool, which any
   * pooler keeps (a transaction-mode pooler such as Neon's `-pooler` host does not keep a session's settings).
   */
  SEARCH_POOL_MAX: z.coerce.number().int().min(0).max(100).default(0),
  // Request bodies: a total deadline, and a minimum rate over every 10 s window (slow senders are cut: 408).
  BODY_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  BODY_MIN_BYTES_PER_SECOND: z.coerce.number().int().min(0).max(100_000_000).default(16_384),
  EMBEDDED_DB_PORT: z.coerce.number().int().min(0).max(65535).default(0),

  // Cache and rate limits: Upstash Redis when a REST URL and token are set, else Postgres tables.
  KV_REST_API_URL: optionalUrl,
  KV_REST_API_TOKEN: z.string().min(1).optional(),
  UPSTASH_REDIS_REST_URL: optionalUrl,
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  /** Timeout of one Upstash cache read or write; past it the read is a miss (rate limits use PROVIDER_TIMEOUT_MS). */
  CACHE_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(400),
  /**
   * Who vouches for the client address of per-IP rate limits: vercel (its edge's headers), none (the socket
   * address), or the number of proxies in front that each append to X-Forwarded-For. Unset: vercel on Vercel.
   */
  TRUSTED_PROXY: z
    .string()
    .regex(
      /^(vercel|none|[1-9])$/,
      "vercel, none, or the number (1-9) of proxies in front that append to X-Forwarded-For",
    )
    .transform((v): TrustedProxy => (v === "vercel" || v === "none" ? v : Number(v)))
    .optional(),
  /** Set by Vercel on its deployments (builds and functions); picks TRUSTED_PROXY's default and `serverless`. */
  VERCEL: z.string().optional(),
  // Set by Vercel (`vercel env pull` writes them empty, hence "" = unset): which environment, and the hosts
  // PUBLIC_BASE_URL falls back to (see vercelBaseUrl).
  VERCEL_ENV: unsetWhenEmpty(z.enum(["production", "preview", "development"])),
  VERCEL_URL: unsetWhenEmpty(z.string().regex(HOST, "a host name without a scheme (Vercel sets it)")),
  VERCEL_PROJECT_PRODUCTION_URL: unsetWhenEmpty(
    z.string().regex(HOST, "a host name without a scheme (Vercel sets it)"),
  ),

  // Jobs: QStash when a token is set, else the in-process worker over the outbox.
  QSTASH_URL: z.string().url().default("https://qstash.upstash.io"),
  QSTASH_TOKEN: z.string().min(1).optional(),
  QSTASH_CURRENT_SIGNING_KEY: z.string().min(1).optional(),
  QSTASH_NEXT_SIGNING_KEY: z.string().min(1).optional(),
  JOB_WORKER: zBool.optional(),
  // Settled (done or failed) job rows older than this are deleted daily (the jobs-prune schedule).
  JOB_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(14),
  // The health check is degraded when an indexer's job has not succeeded for this long (docs/operating.md).
  INDEXER_MAX_LAG_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  // Market snapshots (the token page's chart) older than this are deleted by the same daily prune.
  MARKET_SNAPSHOT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  // Bearer secret Vercel sends to /api/cron/*; unset: those routes answer 401.
  CRON_SECRET: z.string().min(16, "must be at least 16 characters").optional(),

  // Auth.
  API_KEY_PEPPER: z.string().default(""),
  // Requests a minute per partner API key over all its routes, unless the key has its own; unset: no such limit.
  PARTNER_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).optional(),
  FARCASTER_AUTH_DOMAIN: z.string().min(1).optional(),
  FARCASTER_AUTH_ISSUER: z.string().url().default("https://auth.farcaster.xyz"),
  FARCASTER_JWKS_URL: z.string().url().default("https://auth.farcaster.xyz/.well-known/jwks.json"),
  PRIVY_APP_ID: z.string().min(1).optional(),
  PRIVY_VERIFICATION_KEY: z.string().min(1).optional(),
  ADMIN_FIDS: csvInts.optional(),
  ADMIN_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  DEV_AUTH: zBool.optional(),
  // Longest lifetime of a user token (exp - iat, or exp - now without iat); Quick Auth and Privy issue 1 h tokens.
  USER_TOKEN_MAX_LIFETIME_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(86_400),

  // Third parties.
  NEYNAR_API_KEY: z.string().min(1).optional(),
  NEYNAR_BASE_URL: z.string().url().default("https://api.neynar.com"),
  GECKOTERMINAL_BASE_URL: z.string().url().default("https://api.geckoterminal.com/api/v2"),
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),

  // --- tokens and market data ---
  /** Unset: local on the embedded default (a deterministic market, no network), geckoterminal otherwise. */
  MARKET_DATA_PROVIDER: z.enum(["geckoterminal", "local", "none"]).optional(),
  /** CoinGecko on-chain (Pro) key, sent as x-cg-pro-api-key; the public GeckoTerminal API takes none. */
  GECKOTERMINAL_API_KEY: z.string().min(1).optional(),
  MARKET_REFRESH_INTERVAL_SECONDS: cronPeriodSeconds(600),
  MARKET_REFRESH_MAX_POOLS: z.coerce.number().int().min(1).max(3000).default(300),
  /** Stored market figures older than this are withheld (null, `stale: true`) rather than served as current. */
  MARKET_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(86_400),
  /** Background refreshes a minute that lists serving figures older than the refresh period may start. */
  MARKET_BACKGROUND_REFRESHES_PER_MINUTE: z.coerce.number().int().min(0).max(600).default(2),
  // --- profiles and creators ---
  NEYNAR_MAX_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  NEYNAR_MAX_RETRY_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(2000),
  /** Bulk profile calls per minute, across requests, that `includeUser` lists may make for unknown creators. */
  NEYNAR_LIST_FETCHES_PER_MINUTE: z.coerce.number().int().min(0).max(10_000).default(60),
  FOLLOWING_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .default(3600),
  FOLLOWING_MAX_ACCOUNTS: z.coerce.number().int().min(1).max(5000).default(500),
  EARNINGS_INDEX_START_BLOCK: z.coerce.number().int().min(0).default(0),
  EARNINGS_INDEX_BLOCK_RANGE: z.coerce.number().int().min(1).max(100_000).default(2000),
  EARNINGS_INDEX_MAX_RANGES: z.coerce.number().int().min(1).max(1000).default(20),
  EARNINGS_INDEX_CONFIRMATIONS: z.coerce.number().int().min(0).max(1000).default(2),
  // --- presales and airdrops ---
  MERKLE_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .max(2 ** 31)
    .default(400 * 1024 * 1024),
  MERKLE_MAX_LEAVES: z.coerce.number().int().min(1).max(4_194_304).default(1_048_576),
  MERKLE_MAX_CONCURRENT_UPLOADS: z.coerce.number().int().min(1).max(16).default(2),
  /** Of those, how many one client (ipSubject) may hold at once: two slow senders must not hold them all. */
  MERKLE_MAX_UPLOADS_PER_CLIENT: z.coerce.number().int().min(1).max(16).default(1),
  /** A tree upload's body must have arrived within this long (BODY_MIN_BYTES_PER_SECOND applies too). */
  MERKLE_UPLOAD_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(7200).default(600),
  MERKLE_UPLOADS_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(60),
  MERKLE_RETIRED_TREE_GRACE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  PRESALE_REFRESH_PENDING_ATTEMPTS: z.coerce.number().int().min(1).max(8).default(4),
  // --- marketcap, quotes, leaderboard ---
  /** `chainId:address` pairs of tokens priced at exactly 1 USD when they are a pool's paired token. */
  USD_STABLECOINS: z
    .string()
    .regex(CHAIN_ADDRESS_PAIRS, "comma-separated chainId:address pairs")
    .default("8453:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"),
  ETH_USD_FEED_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .default(0),
  ETH_USD_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
  QUOTE_PROVIDERS: z
    .string()
    .regex(
      /^\s*((0x|kyberswap|odos)\s*(,\s*(0x|kyberswap|odos)\s*)*)?$/,
      "a comma-separated list of 0x, kyberswap, odos",
    )
    .transform(
      (v) =>
        [
          ...new Set(
            v
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean),
          ),
        ] as ("0x" | "kyberswap" | "odos")[],
    )
    .optional(),
  QUOTE_DEADLINE_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
  ZEROX_BASE_URL: z.string().url().default("https://api.0x.org"),
  ZEROX_API_KEY: z.string().min(1).optional(),
  KYBERSWAP_BASE_URL: z.string().url().default("https://aggregator-api.kyberswap.com"),
  KYBERSWAP_CLIENT_ID: z.string().min(1).optional(),
  ODOS_BASE_URL: z.string().url().default("https://api.odos.xyz"),
  ODOS_API_KEY: z.string().min(1).optional(),
  LEADERBOARD_SCORE_INTERVAL_SECONDS: cronPeriodSeconds(600),
  // --- deploy and pretokens ---
  /** Deploy requests one partner may make per day (POST /api/tokens/deploy and /split together); more is 429. */
  DEPLOY_DAILY_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(10_000),
  /** How long one deploy job attempt waits for its transaction's receipt before retrying later. */
  DEPLOY_RECEIPT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /** Receives the platform's 20% of legacy deployments' rewards (and unclaimed interface shares); unset: the deployer. */
  DEPLOY_PLATFORM_REWARD_ADDRESS: z
    .string()
    .regex(EVM_ADDRESS, "must be an address")
    .transform((v) => v.toLowerCase() as `0x${string}`)
    .optional(),
  /** Quote tokens besides each chain's WETH: `chainId:SYMBOL:address:decimals:defaultMarketCap`, comma-separated. */
  DEPLOY_QUOTE_TOKENS: z
    .string()
    .regex(
      listOf(`\\d+:[A-Za-z0-9.]{1,16}:${ADDRESS_TEXT}:\\d{1,2}:\\d+(\\.\\d+)?`),
      "comma-separated chainId:SYMBOL:address:decimals:defaultMarketCap entries",
    )
    .default(""),
  // --- the TokenCreated indexer: first block without a checkpoint, blocks per getLogs, ranges per run, reorg depth ---
  /** JSON-RPC requests sent in one HTTP batch at most (one tick's block headers, receipts, calls); 0: no batching. */
  RPC_BATCH_SIZE: z.coerce.number().int().min(0).max(100).default(100),
  TOKEN_INDEX_START_BLOCK: z.coerce.number().int().min(0).default(0),
  TOKEN_INDEX_BLOCK_RANGE: z.coerce.number().int().min(1).max(100_000).default(2000),
  TOKEN_INDEX_MAX_RANGES: z.coerce.number().int().min(1).max(1000).default(20),
  /** `npm run tokens -- backfill`: the largest range read at once (the follower halves it when the RPC refuses). */
  TOKEN_BACKFILL_BLOCK_RANGE: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  TOKEN_INDEX_REORG_DEPTH: z.coerce.number().int().min(0).max(1000).default(12),
  /** Factories indexed besides FACTORY_ADDRESS_<chainId> (e.g. earlier versions): `chainId:address`, comma-separated. */
  TOKEN_INDEX_EXTRA_FACTORIES: z
    .string()
    .regex(CHAIN_ADDRESS_PAIRS, "comma-separated chainId:address pairs")
    .default(""),
  /**
   * Generations before v4 whose factories are indexed (lib/platform/chain/generations.ts names them): `all`, `none`, or
   * a comma-separated list of types. clanker_v4 is always indexed: the deploy path reads its own events.
   */
  TOKEN_INDEX_GENERATIONS: z
    .string()
    .regex(
      /^\s*(all|none|((proxy|clanker|clanker_v2|clanker_v3|clanker_v3_1|clanker_v4)\s*(,\s*|$))+)\s*$/,
      "all, none, or comma-separated types among proxy, clanker, clanker_v2, clanker_v3, clanker_v3_1, clanker_v4",
    )
    .default("all"),
  /** The head follower: how often each chain's head is read (one eth_blockNumber); 0 turns it off. */
  HEAD_FOLLOW_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** index-by-address: blocks per getLogs when searching back from the head, and how many such ranges at most. */
  TOKEN_LOOKUP_BLOCK_RANGE: z.coerce.number().int().min(1).max(10_000_000).default(10_000),
  TOKEN_LOOKUP_MAX_RANGES: z.coerce.number().int().min(1).max(1000).default(50),
  /** Pending (undeleted, under 7 days old) pretokens one user may hold. */
  PRETOKEN_MAX_PENDING: z.coerce.number().int().min(1).max(1000).default(100),
  /** Pretokens one user may create per minute (each runs a chain simulation); more is 429. */
  PRETOKEN_CREATES_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
  // --- explorer pictures ---
  /** Let the picture proxy fetch http:// and loopback/private/link-local addresses. Unset: only on the embedded default. */
  IMAGE_PROXY_ALLOW_PRIVATE: zBool.optional(),
  // --- webhooks ---
  /** Allow http:// and loopback/private/link-local webhook targets. Unset: only on the embedded default. */
  WEBHOOK_ALLOW_PRIVATE: zBool.optional(),
  /** One delivery attempt's limit (connect + answer). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Of that, the limit to connect (DNS and TCP): a host dropping packets fails in seconds, not at the whole limit. */
  WEBHOOK_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3_000),
  /** Attempts per delivery (retried with backoff); 8 spans about 21 hours. */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(8).default(8),
  /** Subscriptions one partner may hold. */
  WEBHOOK_MAX_PER_PARTNER: z.coerce.number().int().min(1).max(1000).default(20),
  // --- token stream (GET /api/tokens/stream) ---
  /** How often each instance reads new token events for its open streams (one read, fanned out). */
  STREAM_POLL_MS: z.coerce.number().int().min(50).max(10_000).default(500),
  /** A comment (and the current cursor) on every open stream this often, so proxies keep it open. */
  STREAM_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(120).default(15),
  /** A stream ends (event `end`) this long after it opened, before the platform's function limit. */
  STREAM_MAX_SECONDS: z.coerce.number().int().min(5).max(86_400).default(270),
  /** The `retry:` hint: how long a client waits before reconnecting. */
  STREAM_RETRY_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  /** Token events kept for resuming; a cursor older than this is told to page GET /api/tokens. */
  STREAM_RETENTION_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  /** Open streams per client address (per instance). */
  STREAM_MAX_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Open streams per API key (per instance). */
  STREAM_MAX_PER_KEY: z.coerce.number().int().min(1).max(100_000).default(200),
  /** Open streams on one instance. */
  STREAM_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
});

export type TrustedProxy = "vercel" | "none" | number;
