// The hostile chain part of `npm run reliability -- --hostile`: the hostile events of tests/helpers/hostile-chain.ts
// planted on the chain the built server reads, the server's cron asking for the indexer and a worker beside it (this
// process) running it. Passing: every token around the hostile events is indexed in that one run, the undecodable log
// is listed as quarantined (admin route and health), a stray contract's log is not indexed, and no answer about any
// planted token (its lookup, a search by its name, its explorer page) is a 5xx.
import type { Address } from "viem";
import { resetConfig } from "@/lib/core/config";
import type { TestChain } from "@/tests/helpers/chain";
import {
  deployDirect,
  deployLogger,
  emit,
  plantedAddress,
  plantedData,
  plantHostileLogs,
  POISON,
} from "@/tests/helpers/hostile-chain";
import type { Check } from "./hostile";

export type HostileChainResult = {
  planted: number;
  indexed: number;
  expectedIndexed: number;
  quarantined: number;
  indexMs: number;
  answers: Record<string, number>;
};

const CRON_SECRET = "reliability-cron-secret-0123456789";
const ADMIN_SECRET = "reliability-admin-secret-0123456789";
const SESSION_SECRET = "reliability-session-secret-0123456789abcdef";

/** Before the server starts: the logger it must index (as an extra factory) and the secrets it must know. */
export async function prepareHostileChain(c: TestChain) {
  const logger = await deployLogger(c);
  return {
    logger,
    env: { TOKEN_INDEX_EXTRA_FACTORIES: `8453:${logger}`, CRON_SECRET, ADMIN_SECRET, SESSION_SECRET },
  };
}

export async function runHostileChain(
  c: TestChain,
  baseUrl: string,
  logger: Address,
): Promise<{ result: HostileChainResult; checks: Check[] }> {
  Object.assign(process.env, {
    TOKEN_INDEX_EXTRA_FACTORIES: `8453:${logger}`,
    CRON_SECRET,
    ADMIN_SECRET,
    SESSION_SECRET,
  });
  resetConfig();
  const [{ db }, { runDueJobs }, { tokenIndexCheckpoint }, { partnerKey }, { jobs }] = await Promise.all([
    import("@/db"),
    import("@/lib/platform/jobs/runner"),
    import("@/lib/domains/launch/indexer/follow"),
    import("@/tests/helpers/auth"),
    import("@/lib/domains/jobs"),
  ]);
  const checks: Check[] = [];
  const check = (name: string, passed: boolean, detail: string) => void checks.push({ name, passed, detail });

  const before = await deployDirect(c, "Hostile before");
  const poison = await deployDirect(c, POISON.name, POISON);
  const planted = await plantHostileLogs(c, logger);
  const stray = plantedAddress(30);
  await emit(c, await deployLogger(c), stray, plantedData(c, { token: stray }));
  const after = await deployDirect(c, "Hostile after");
  const { undecodable, ...storable } = planted;
  const expected = [before, poison, after, ...Object.values(storable)].map((a) => a.toLowerCase());

  const started = Date.now();
  const cron = await fetch(`${baseUrl}/api/cron/token-index`, { headers: { authorization: `Bearer ${CRON_SECRET}` } });
  const outcomes = await runDueJobs(jobs);
  const indexMs = Date.now() - started;
  check(
    "the server's cron enqueues the indexer and one run of it succeeds",
    cron.status === 200 && outcomes.length === 1 && outcomes[0]!.status === "done",
    `cron ${cron.status}; ${outcomes.map((o) => `job ${o.id} ${o.status}${o.error ? `: ${o.error}` : ""}`).join(", ")}`,
  );
  const rows = await db()
    .selectFrom("tokens")
    .select(["contract_address", "name"])
    .where("contract_address", "in", [...expected, undecodable.toLowerCase(), stray.toLowerCase()])
    .execute();
  const found = new Set(rows.map((r) => r.contract_address));
  const missing = expected.filter((a) => !found.has(a));
  check(
    `the ${expected.length} tokens around the hostile events are indexed in that run`,
    missing.length === 0,
    missing.length ? `missing: ${missing.join(", ")}` : `${expected.length} indexed`,
  );
  check(
    "the undecodable log and the stray contract's log are not tokens",
    !found.has(undecodable.toLowerCase()) && !found.has(stray.toLowerCase()),
    [undecodable, stray].filter((a) => found.has(a.toLowerCase())).join(", ") || "neither stored",
  );
  const head = Number(await c.publicClient.getBlockNumber());
  const checkpoints = [await tokenIndexCheckpoint(8453, c.contracts.factory), await tokenIndexCheckpoint(8453, logger)];
  check(
    "both factories' checkpoints reach the head",
    checkpoints.every((b) => b === head),
    `head ${head}, checkpoints ${checkpoints.join(", ")}`,
  );

  const verify = await fetch(`${baseUrl}/api/admin/verify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ secret: ADMIN_SECRET }),
  });
  const cookie = (verify.headers.get("set-cookie") ?? "").split(";")[0]!;
  const listed = await fetch(`${baseUrl}/api/admin/quarantined-events`, { headers: { cookie } });
  const events = ((await listed.json()) as { events?: { reason: string; address: string }[] }).events ?? [];
  check(
    "the undecodable log is listed as quarantined, and nothing else",
    listed.status === 200 &&
      events.length === 1 &&
      events[0]!.reason === "undecodable" &&
      events[0]!.address.toLowerCase() === logger.toLowerCase(),
    `${listed.status}: ${JSON.stringify(events.map((e) => e.reason))}`,
  );
  const health = (await (await fetch(`${baseUrl}/api/health`)).json()) as { quarantinedEvents?: number };
  check("the health check counts it", health.quarantinedEvents === 1, `quarantinedEvents ${health.quarantinedEvents}`);

  const key = await partnerKey("reliability-hostile-chain");
  const answers: Record<string, number> = {};
  for (const row of rows) {
    const q = encodeURIComponent(row.name.slice(0, 40));
    for (const [path, headers] of [
      [`/api/get-token-by-address?address=${row.contract_address}`, { "x-api-key": key }],
      [`/api/tokens?q=${q}`, {}],
      [`/tokens/${row.contract_address}`, {}],
    ] as const) {
      const status = (await fetch(`${baseUrl}${path}`, { headers })).status;
      answers[status] = (answers[status] ?? 0) + 1;
    }
  }
  const fives = Object.entries(answers)
    .filter(([s]) => Number(s) >= 500)
    .reduce((n, [, k]) => n + k, 0);
  check(
    "no 5xx for any planted token (lookup, search by name, explorer page)",
    fives === 0 && Object.keys(answers).length > 0,
    JSON.stringify(answers),
  );
  return {
    result: {
      planted: expected.length + 2,
      indexed: expected.length - missing.length,
      expectedIndexed: expected.length,
      quarantined: events.length,
      indexMs,
      answers,
    },
    checks,
  };
}
