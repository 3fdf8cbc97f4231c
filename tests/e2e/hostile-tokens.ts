// What a hostile deployer can put in a token, given to two of the newest seeded tokens (page 1 of the explorer,
// none with a presale): a name and a description with a right-to-left override (U+202E) and zero-width
// characters, a picture on another host (the explorer must load it through the service's picture proxy), and a
// javascript: picture (as stored before the indexer dropped such URLs). Also gives the five newest tokens market
// figures fetched now (FRESH_MARKET), so the rows' figures do not depend on the seed's dates. tests/e2e/run.ts runs
// it on its private database before the server starts: `npx tsx tests/e2e/hostile-tokens.ts <picture URL>`.
import { pathToFileURL } from "node:url";

export const HOSTILE = {
  name: "Mirror\u202Eesrever\u200B",
  description: "Plain words, \u202Ethen reversed\u200D, then more",
  scriptPicture: "javascript:alert(document.domain)",
};

/** The market figures of the five newest tokens, as if fetched when the run starts. */
export const FRESH_MARKET = {
  market_cap_usd: 1_234_567,
  price_usd: 0.001234,
  volume_24h_usd: 45_678,
  tx_count_24h: 321,
  price_change_1h: -1.5,
  price_change_24h: 12.25,
};

async function main(pictureUrl: string) {
  const { closeDb, db } = await import("@/db");
  const rows = await db()
    .selectFrom("tokens")
    .select(["id", "metadata"])
    .where("presale_id", "is", null)
    .orderBy("deployed_at", "desc")
    .orderBy("id", "desc")
    .limit(2)
    .execute();
  if (rows.length < 2) throw new Error("the seeded dataset has fewer than two tokens without a presale");
  const metadata = typeof rows[0].metadata === "string" ? JSON.parse(rows[0].metadata) : (rows[0].metadata ?? {});
  await db()
    .updateTable("tokens")
    .set({
      name: HOSTILE.name,
      metadata: JSON.stringify({ ...metadata, description: HOSTILE.description }),
      img_url: pictureUrl,
    })
    .where("id", "=", rows[0].id)
    .execute();
  await db().updateTable("tokens").set({ img_url: HOSTILE.scriptPicture }).where("id", "=", rows[1].id).execute();
  const newest = await db()
    .selectFrom("tokens")
    .select("id")
    .orderBy("deployed_at", "desc")
    .orderBy("id", "desc")
    .limit(5)
    .execute();
  for (const { id } of newest)
    await db()
      .insertInto("token_market")
      .values({ token_id: id, ...FRESH_MARKET, updated_at: new Date() })
      .onConflict((oc) => oc.column("token_id").doUpdateSet({ ...FRESH_MARKET, updated_at: new Date() }))
      .execute();
  await closeDb();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [pictureUrl] = process.argv.slice(2);
  if (!pictureUrl) throw new Error("usage: tsx tests/e2e/hostile-tokens.ts <picture URL>");
  await main(pictureUrl);
}
