// Hostile input for every route() endpoint: generated requests around each schema (missing, huge, negative,
// fractional, overflowing, unicode, malformed addresses/hex/cursors, duplicated keys, wrong content types, deep
// and oversized JSON, garbage credentials). No 5xx but the documented 503s, always the one envelope with
// no-store, no leaked internals. Writes (with the database compared before/after) are in hostile-writes.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoverEndpoints } from "./fuzz";
import { writeTally, fuzzEndpoint, runsFor, setupHostileEnv, tally, type Env } from "./suite";

/** Requests per read endpoint with input (33 of them; 25 for the 6 without) → with the writes' file over 10,000. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 290);

const endpoints = (await discoverEndpoints()).filter((ep) => ep.method === "GET");
let env: Env;

beforeAll(async () => {
  env = await setupHostileEnv();
});
afterAll(async () => {
  writeTally("reads");
  await env?.issuer.close();
  await env?.thirdParty.close();
});

describe("hostile input: reads", () => {
  it("finds every route file's GET methods built with route()", () => {
    expect(endpoints.length).toBeGreaterThan(35);
  });

  for (const ep of endpoints) {
    it(`${ep.id} survives ${runsFor(ep, RUNS)} hostile requests`, async () => {
      const before = tally.findings.length;
      await fuzzEndpoint(ep, env.creds, runsFor(ep, RUNS));
      expect(tally.findings.slice(before)).toEqual([]);
    }, 300_000);
  }

  it("sent RUNS requests to each endpoint", () => {
    expect(tally.requests).toBe(endpoints.reduce((n, ep) => n + runsFor(ep, RUNS), 0));
    if (!process.env.FUZZ_RUNS) expect(tally.requests).toBeGreaterThanOrEqual(9_000);
  });
});
