// Hostile input for every writing endpoint (POST/PUT/PATCH/DELETE): as hostile-input.test.ts, and every rejected
// write is checked against a snapshot of all tables (row counts and a hash of every row) taken just before it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoverEndpoints } from "./fuzz";
import { writeTally, fuzzEndpoint, setupHostileEnv, tally, type Env } from "./suite";

/** Writes cost two snapshots each; fewer runs per endpoint than the reads. */
const RUNS = Number(process.env.FUZZ_WRITE_RUNS ?? process.env.FUZZ_RUNS ?? 75);

const endpoints = (await discoverEndpoints()).filter((ep) => ep.method !== "GET");
let env: Env;

beforeAll(async () => {
  env = await setupHostileEnv();
});
afterAll(async () => {
  writeTally("writes");
  await env?.issuer.close();
  await env?.thirdParty.close();
});

describe("hostile input: writes change nothing when rejected", () => {
  it("finds the writing endpoints", () => {
    expect(endpoints.length).toBeGreaterThan(10);
  });

  for (const ep of endpoints) {
    it(`${ep.id} survives ${RUNS} hostile requests`, async () => {
      const before = tally.findings.length;
      await fuzzEndpoint(ep, env.creds, RUNS);
      expect(tally.findings.slice(before)).toEqual([]);
    }, 300_000);
  }

  it("compared the database after every rejected write", () => {
    if (!process.env.FUZZ_RUNS && !process.env.FUZZ_WRITE_RUNS) expect(tally.requests).toBeGreaterThanOrEqual(1_000);
    expect(tally.requests).toBe(RUNS * endpoints.length);
    expect(tally.writesChecked).toBe(tally.writesRejected);
    expect(tally.writesRejected).toBeGreaterThan(endpoints.length * RUNS * 0.5);
  });
});
