// Partner API keys: shown once, stored only as a hash beside a visible prefix, looked up by hash.
import { describe, expect, it } from "vitest";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { createApiKey, findPartnerByKey, hashApiKey, listApiKeys, revokeApiKey } from "@/lib/domains/partners/apikeys";

describe("partner API keys", () => {
  it("creates a random key whose prefix is visible and whose hash alone is stored", async () => {
    const a = await createApiKey("acme");
    const b = await createApiKey("acme");
    expect(a.key).toMatch(/^tlk_[A-Za-z0-9_-]{32}$/);
    expect(a.key).not.toBe(b.key);
    expect(a.prefix).toBe(a.key.slice(0, 12));
    const row = await db().selectFrom("api_keys").selectAll().where("id", "=", a.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(hashApiKey(a.key));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(a.key);
  });

  it("finds the partner by key, records its use, and forgets it once revoked", async () => {
    const { key, prefix, id } = await createApiKey("globex");
    expect(await findPartnerByKey(key)).toEqual({
      id,
      name: "globex",
      scopes: ["read", "deploy", "index", "webhooks"],
      requestsPerMinute: null,
    });
    await expect
      .poll(
        async () =>
          (await db().selectFrom("api_keys").select("last_used_at").where("id", "=", id).executeTakeFirstOrThrow())
            .last_used_at,
      )
      .not.toBeNull();
    expect(await revokeApiKey(prefix)).toBe(true);
    expect(await findPartnerByKey(key)).toBeNull();
    const listed = (await listApiKeys()).find((k) => k.id === id)!;
    expect(listed.revoked_at).toBeInstanceOf(Date);
    expect(listed).not.toHaveProperty("key_hash");
  });

  it("refuses malformed and unknown keys without a match", async () => {
    for (const key of ["", "tlk_short", "x".repeat(36), `tlk_${"a".repeat(32)}`, `tlk_${"a".repeat(31)}!`]) {
      expect(await findPartnerByKey(key)).toBeNull();
    }
    expect(await revokeApiKey("tlk_unknown0")).toBe(false);
  });

  it("mixes API_KEY_PEPPER into the hash", () => {
    const plain = hashApiKey("tlk_example");
    process.env.API_KEY_PEPPER = "pepper";
    resetConfig();
    try {
      expect(hashApiKey("tlk_example")).not.toBe(plain);
    } finally {
      delete process.env.API_KEY_PEPPER;
      resetConfig();
    }
  });
});
