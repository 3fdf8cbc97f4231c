// POST /api/jobs/[job]: Upstash-Signature verification (fails closed) and what each outcome answers QStash.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { sql } from "kysely";
import { z } from "zod";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { defineJob, enqueue, PermanentJobError } from "@/lib/platform/jobs/define";
import { POST } from "@/app/api/jobs/[job]/route";
import { call, expectError } from "@/tests/helpers/http";
import { signDelivery } from "@/tests/helpers/qstash";
import { addTestJobs } from "@/tests/helpers/jobs";

// The routes see this file's jobs beside the server's.
vi.mock("@/lib/domains/jobs", async () => (await import("@/tests/helpers/jobs")).serverJobsAnd());

const BASE = "http://localhost:3000";
const CURRENT = "sig_current_test_key_0123456789";
const NEXT = "sig_next_test_key_0123456789";
let effects = 0;

const deliver = defineJob({
  name: "test-deliver",
  schema: z.object({ mode: z.enum(["ok", "permanent", "transient"]) }),
  handle: async ({ mode }) => {
    effects++;
    if (mode === "permanent") throw new PermanentJobError("cannot ever work");
    if (mode === "transient") throw new Error("provider down");
    return { ok: true };
  },
});
addTestJobs({ jobs: [deliver] });

function send(job: string, body: string, headers: Record<string, string> = {}) {
  return call(POST, `/api/jobs/${job}`, { method: "POST", body, headers, params: { job } });
}

async function signed(job: string, body: string, key = CURRENT, url = `${BASE}/api/jobs/${job}`) {
  return send(job, body, { "upstash-signature": await signDelivery(key, url, body) });
}

const row = (id: number) => db().selectFrom("jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

beforeAll(() => {
  process.env.PUBLIC_BASE_URL = BASE;
  process.env.QSTASH_CURRENT_SIGNING_KEY = CURRENT;
  process.env.QSTASH_NEXT_SIGNING_KEY = NEXT;
  resetConfig();
});

afterAll(() => {
  for (const k of ["PUBLIC_BASE_URL", "QSTASH_CURRENT_SIGNING_KEY", "QSTASH_NEXT_SIGNING_KEY"]) delete process.env[k];
  resetConfig();
});

beforeEach(async () => {
  await db().deleteFrom("jobs").execute();
  effects = 0;
});

describe("POST /api/jobs/[job] signature", () => {
  it("accepts a delivery signed with the current key and runs the job", async () => {
    const { id } = await enqueue(deliver, { mode: "ok" });
    const res = await signed("test-deliver", JSON.stringify({ id }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, status: "done", ran: true });
    expect((await row(id)).status).toBe("done");
  });

  it("accepts a delivery signed with the next key (key rotation)", async () => {
    const { id } = await enqueue(deliver, { mode: "ok" });
    const res = await signed("test-deliver", JSON.stringify({ id }), NEXT);
    expect(res.status).toBe(200);
    expect(effects).toBe(1);
  });

  const rejected = async (res: Awaited<ReturnType<typeof send>>, id: number) => {
    expectError(res, 401, "unauthorized");
    expect((await row(id)).status).toBe("pending");
    expect(effects).toBe(0);
  };

  it("rejects a signature made with another key", async () => {
    const { id } = await enqueue(deliver, { mode: "ok" });
    await rejected(await signed("test-deliver", JSON.stringify({ id }), "sig_someone_else"), id);
  });

  it("rejects a body other than the one signed", async () => {
    const { id } = await enqueue(deliver, { mode: "ok" });
    const other = await enqueue(deliver, { mode: "ok" });
    const signature = await signDelivery(CURRENT, `${BASE}/api/jobs/test-deliver`, JSON.stringify({ id }));
    await rejected(
      await send("test-deliver", JSON.stringify({ id: other.id }), { "upstash-signature": signature }),
      other.id,
    );
    await rejected(await send("test-deliver", `${JSON.stringify({ id })} `, { "upstash-signature": signature }), id);
  });

  it("rejects a signature for another URL", async () => {
    const { id } = await enqueue(deliver, { mode: "ok" });
    await rejected(await signed("test-deliver", JSON.stringify({ id }), CURRENT, `${BASE}/api/jobs/other-job`), id);
    await rejected(
      await signed("test-deliver", JSON.stringify({ id }), CURRENT, `https://elsewhere.example/api/jobs/test-deliver`),
      id,
    );
  });

  it("rejects a delivery without Upstash-Signature", async () => {
    const { id } = await enqueue(deliver, { mode: "ok" });
    await rejected(await send("test-deliver", JSON.stringify({ id })), id);
  });

  it("rejects an expired signature and one from another issuer", async () => {
    const { id } = await enqueue(deliver, { mode: "ok" });
    const body = JSON.stringify({ id });
    const url = `${BASE}/api/jobs/test-deliver`;
    const past = Math.floor(Date.now() / 1000) - 3600;
    await rejected(
      await send("test-deliver", body, {
        "upstash-signature": await signDelivery(CURRENT, url, body, { exp: past, iat: past - 300, nbf: past - 300 }),
      }),
      id,
    );
    await rejected(
      await send("test-deliver", body, {
        "upstash-signature": await signDelivery(CURRENT, url, body, { iss: "Someone" }),
      }),
      id,
    );
  });

  it("rejects a signature without an expiry (replayable forever), and accepts the same message signed as QStash signs it", async () => {
    const { id } = await enqueue(deliver, { mode: "ok" });
    const body = JSON.stringify({ id });
    const url = `${BASE}/api/jobs/test-deliver`;
    await rejected(
      await send("test-deliver", body, {
        "upstash-signature": await signDelivery(CURRENT, url, body, { exp: undefined }),
      }),
      id,
    );
    await rejected(
      await send("test-deliver", body, {
        "upstash-signature": await signDelivery(NEXT, url, body, { exp: undefined }),
      }),
      id,
    );
    const res = await send("test-deliver", body, { "upstash-signature": await signDelivery(CURRENT, url, body) });
    expect(res.status, res.text).toBe(200);
    expect(effects).toBe(1);
  });

  it("rejects every delivery when no signing keys are configured, even a well-signed one", async () => {
    const { id } = await enqueue(deliver, { mode: "ok" });
    delete process.env.QSTASH_CURRENT_SIGNING_KEY;
    delete process.env.QSTASH_NEXT_SIGNING_KEY;
    resetConfig();
    try {
      await rejected(await signed("test-deliver", JSON.stringify({ id })), id);
    } finally {
      process.env.QSTASH_CURRENT_SIGNING_KEY = CURRENT;
      process.env.QSTASH_NEXT_SIGNING_KEY = NEXT;
      resetConfig();
    }
  });

  it("checks the signature before revealing whether the job exists", async () => {
    expectError(await send("no-such-job", JSON.stringify({ id: 1 })), 401, "unauthorized");
  });
});

describe("POST /api/jobs/[job] outcomes", () => {
  it("answers 404 for a job name nobody defined, or an id that is not that job", async () => {
    expectError(await signed("no-such-job", JSON.stringify({ id: 1 })), 404, "not_found");
    const { id } = await enqueue(deliver, { mode: "ok" });
    expectError(await signed("test-deliver", JSON.stringify({ id: id + 1000 })), 404, "not_found");
  });

  it("answers 400 for a signed body that is not { id }", async () => {
    expectError(await signed("test-deliver", "not json"), 400, "invalid_request");
    expectError(await signed("test-deliver", JSON.stringify({ id: "1" })), 400, "invalid_request");
  });

  it("records a permanent failure and answers 2xx so QStash stops", async () => {
    const { id } = await enqueue(deliver, { mode: "permanent" });
    const res = await signed("test-deliver", JSON.stringify({ id }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, status: "failed", ran: true });
    expect(await row(id)).toMatchObject({ status: "failed", last_error: "cannot ever work" });
  });

  it("answers 503 with Retry-After on a transient failure, leaving the row to QStash's redelivery", async () => {
    const { id } = await enqueue(deliver, { mode: "transient" });
    const res = await signed("test-deliver", JSON.stringify({ id }));
    expectError(res, 503, "provider_unavailable");
    expect(res.headers.get("retry-after")).toBe("2");
    expect(res.text).not.toContain("provider down");
    expect(await row(id)).toMatchObject({ status: "dispatched", attempts: 1, last_error: "provider down" });
    // QStash comes back after its backoff (longer than ours): the job is due again and runs.
    await db().updateTable("jobs").set({ run_at: sql`now()` }).where("id", "=", id).execute();
    expectError(await signed("test-deliver", JSON.stringify({ id })), 503, "provider_unavailable");
    expect((await row(id)).attempts).toBe(2);
  });

  it("answers 2xx without running again for a job already done (duplicate delivery)", async () => {
    const { id } = await enqueue(deliver, { mode: "ok" });
    await signed("test-deliver", JSON.stringify({ id }));
    const again = await signed("test-deliver", JSON.stringify({ id }));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ id, status: "done", ran: false });
    expect(effects).toBe(1);
  });

  it("answers 503 while another runner holds the job, and before it is due", async () => {
    const held = await enqueue(deliver, { mode: "ok" });
    await db()
      .updateTable("jobs")
      .set({ status: "running", attempts: 1, locked_until: sql`now() + interval '1 minute'` })
      .where("id", "=", held.id)
      .execute();
    expectError(await signed("test-deliver", JSON.stringify({ id: held.id })), 503, "provider_unavailable");
    const later = await enqueue(deliver, { mode: "ok" }, { delaySeconds: 600 });
    expectError(await signed("test-deliver", JSON.stringify({ id: later.id })), 503, "provider_unavailable");
    expect(effects).toBe(0);
  });
});
