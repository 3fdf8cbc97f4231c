// Runs the hostile-request properties for a set of endpoints and collects every invariant broken, so one run
// shows all findings (with a failing request each) instead of stopping at the first.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { resetConfig } from "@/lib/core/config";
import { partnerKey, startIssuer, type Issuer } from "@/tests/helpers/auth";
import { startFakeServer, type FakeServer } from "@/tests/helpers/fake-server";
import { requestArb, send, snapshot, violation, type Credentials, type Endpoint, type RequestSpec } from "./fuzz";

/**
 * Routes whose documented answer is 503 (with Retry-After) when a dependency is not configured or down: in the
 * suite no chain RPC is configured and every third party answers 503, so these may answer 503 and nothing else 5xx.
 */
export const MAY_503 = new Set([
  "GET /api/creator-earnings/[tokenAddress]", // chain RPC (fee reads)
  "GET /api/get-estimated-uncollected-fees/[address]", // chain RPC
  "GET /api/marketcap", // chain RPC (pool state, ETH/USD feed)
  "GET /api/presales/refresh", // chain RPC (receipt)
  "GET /api/quotes", // quote providers
  "GET /api/tokens/trending", // GeckoTerminal
  "GET /api/tokens/estimate-rewards-by-pool-address", // chain RPC
  "POST /api/tokens/deploy", // chain RPC (simulate/send)
  "POST /api/tokens/deploy/split", // chain RPC
  "POST /api/tokens/index-by-address", // chain RPC (lookup)
  "POST /api/tokens/save-deployed-token/from-ui", // chain RPC (receipt)
  "GET /api/get-tokens-deployed/by-following", // Neynar (following list)
  "GET /api/get-user-by-fid", // Neynar on a cache miss
  "GET /api/get-user-by-address", // Neynar on a cache miss
  "GET /api/get-user-by-name", // Neynar on a cache miss
  "GET /api/get-multiple-users-by-fid", // Neynar on a cache miss
  "GET /api/search-creator", // search statement budget
  "GET /api/tokens", // search statement budget
  "GET /api/tokens/authenticated", // search statement budget
  "GET /api/tokens/search", // search statement budget
  "GET /api/health", // reports an unconfigured dependency as 503 by design
]);

export type Finding = { endpoint: string; problem: string; request: string };
export type Tally = {
  requests: number;
  writesRejected: number;
  writesChecked: number;
  fiveHundreds: number;
  allowed503: number;
  findings: Finding[];
};

export const tally: Tally = {
  requests: 0,
  writesRejected: 0,
  writesChecked: 0,
  fiveHundreds: 0,
  allowed503: 0,
  findings: [],
};

export type Env = { creds: Credentials; issuer: Issuer; thirdParty: FakeServer };

/** Third parties answer 503 at once (no internet here, and no DNS waits); chains stay unconfigured. */
export async function setupHostileEnv(): Promise<Env> {
  const thirdParty = await startFakeServer(() => ({ status: 503, json: { error: "down" } }));
  for (const name of [
    "GECKOTERMINAL_BASE_URL",
    "NEYNAR_BASE_URL",
    "ZEROX_BASE_URL",
    "KYBERSWAP_BASE_URL",
    "ODOS_BASE_URL",
    "QSTASH_URL",
  ]) {
    process.env[name] = thirdParty.url;
  }
  process.env.NEYNAR_API_KEY = "test-neynar-key";
  process.env.NEYNAR_MAX_RETRIES = "0";
  process.env.PROVIDER_TIMEOUT_MS = "1000";
  process.env.QUOTE_DEADLINE_MS = "1000";
  process.env.MERKLE_MAX_BODY_BYTES = String(1024 * 1024);
  process.env.CRON_SECRET = "test-cron-secret-0123456789";
  // The fuzz probes the create validation; the per-user create limit has its own test (tests/api/pretokens).
  process.env.PRETOKEN_CREATES_PER_MINUTE = "10000";
  const issuer = await startIssuer([1]);
  resetConfig();
  const creds: Credentials = {
    partner: await partnerKey("fuzz"),
    user: await issuer.token(4242),
    otherUser: await issuer.token(4343),
    admin: await issuer.token(1),
  };
  return { creds, issuer, thirdParty };
}

function describeRequest(spec: RequestSpec): string {
  const body =
    spec.body?.text === undefined
      ? ""
      : ` body(${spec.body.kind}, ${spec.body.text.length}B)=${spec.body.text.slice(0, 200)}`;
  return `${spec.method} ${spec.url.slice(0, 300)} auth=${spec.credential} ct=${spec.body?.contentType ?? "-"}${body}`;
}

let lastSnapshot: Awaited<ReturnType<typeof snapshot>> | null = null;

/** Endpoints without query, body or path input vary only in credentials and unknown parameters: fewer runs. */
export function runsFor(ep: Endpoint, runs: number): number {
  const hasInput =
    ep.queryFields.length + ep.bodyFields.length + ep.paramNames.length > 0 ||
    ep.definition.body ||
    ep.definition.rawBody;
  return hasInput ? runs : Math.min(runs, 25);
}

/** Sends `runs` generated requests to `ep`; a rejected write must leave every table's rows as they were. */
export async function fuzzEndpoint(ep: Endpoint, creds: Credentials, runs: number, seed?: number): Promise<void> {
  const isWrite = ep.method !== "GET";
  await fc.assert(
    fc.asyncProperty(requestArb(ep, creds), async (spec) => {
      // The state after a rejected write is the state before the next one: reuse it (snapshots cost most here).
      const before = isWrite ? (lastSnapshot ??= await snapshot()) : null;
      const answer = await send(ep, spec);
      if (isWrite && answer.status < 300) lastSnapshot = null;
      tally.requests++;
      if (answer.status >= 500) tally.fiveHundreds++;
      const allow = MAY_503.has(ep.id);
      if (answer.status === 503 && allow) tally.allowed503++;
      let problem = violation(ep, spec, answer, allow);
      if (!problem && before && answer.status >= 300) {
        tally.writesRejected++;
        const after = await snapshot();
        lastSnapshot = after;
        tally.writesChecked++;
        if (after.hash !== before.hash) {
          const changed = Object.keys(after.counts).filter((t) => after.counts[t] !== before.counts[t]);
          problem = `rejected write (${answer.status}) changed the database${changed.length ? `: counts of ${changed.join(", ")}` : " (contents)"}`;
        }
      }
      if (problem && tally.findings.filter((f) => f.endpoint === ep.id).length < 5) {
        tally.findings.push({ endpoint: ep.id, problem, request: describeRequest(spec) });
      }
    }),
    { numRuns: runs, seed, endOnFailure: true },
  );
}

/** For `npm run reliability`: each test file leaves its tally where the command collects the figures. */
export function writeTally(file: string) {
  const dir = process.env.RELIABILITY_OUT;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${file}.json`), JSON.stringify(tally, null, 2));
}
