// GET /api/get-multiple-users-by-fid with 100 FIDs per request (stored profiles: no provider key).
import { db } from "@/db";
import { userJsonByFidsQuery } from "@/lib/domains/users/queries/profiles";
import { FID_TTL_SECONDS } from "@/lib/domains/users/service";
import { defineScenario, type BenchContext } from "./types";

/** 20 lists of 100 FIDs spread over the whole range, deterministic. */
async function fidLists(ctx: BenchContext): Promise<number[][]> {
  const { rows } = await ctx.pool.query("SELECT min(fid) AS lo, max(fid) AS hi FROM users");
  const lo = Number(rows[0].lo);
  const span = Number(rows[0].hi) - lo + 1;
  return Array.from({ length: 20 }, (_, list) =>
    Array.from({ length: 100 }, (_, i) => lo + ((list * 7919 + i * 104_729) % span)),
  );
}

export default defineScenario({
  name: "users-multiple-100",
  description: "GET /api/get-multiple-users-by-fid?fids=<100 FIDs>",
  requests: async (ctx) =>
    (await fidLists(ctx)).map((fids) => ({ path: `/api/get-multiple-users-by-fid?fids=${fids.join(",")}` })),
  sql: async (ctx) =>
    (await fidLists(ctx)).map((fids) => {
      const c = userJsonByFidsQuery(db(), fids, FID_TTL_SECONDS).compile();
      return [[{ text: c.sql, values: [...c.parameters] }]];
    }),
});
