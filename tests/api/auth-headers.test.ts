// User auth in the platform's forms (its API reference: `Authorization: Bearer <token>` + `fc-id-token` or
// `privy-id-token`) beside this service's own (a Bearer alone): every accepted form, every refusal, the CORS
// preflight, and the pretoken routes end to end with the platform's headers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/db";
import { resetConfig } from "@/lib/core/config";
import { preflight, route } from "@/lib/http/route";
import { POST as createPost } from "@/app/api/pretoken/v4/route";
import { GET as pendingGet } from "@/app/api/pretoken/pending/route";
import { DELETE as deleteRoute } from "@/app/api/pretoken/[id]/route";
import {
  type Issuer,
  type PrivyIssuer,
  partnerKey,
  startIssuer,
  startPrivyIssuer,
  unsignedToken,
} from "@/tests/helpers/auth";
import { call, expectError } from "@/tests/helpers/http";
import { useTestChain } from "@/tests/helpers/chain";

const chain = useTestChain();
let fc: Issuer;
let privy: PrivyIssuer;
const DID = "did:privy:cm0abc";
const OTHER_DID = "did:privy:cm0xyz";

beforeAll(async () => {
  fc = await startIssuer([1]);
  privy = await startPrivyIssuer();
  process.env.PRETOKEN_CREATES_PER_MINUTE = "10000";
  resetConfig();
});
afterAll(async () => {
  delete process.env.PRETOKEN_CREATES_PER_MINUTE;
  privy?.close();
  await fc?.close();
});

const userRoute = route({
  auth: "user",
  handler: ({ principal }) => ({ userId: principal.userId, fid: principal.fid, issuer: principal.issuer }),
});
const adminRoute = route({ auth: "admin", handler: ({ principal }) => ({ via: principal.via }) });
const optionalUserRoute = route({
  auth: "optionalUser",
  handler: ({ principal }) => ({ kind: principal.kind, userId: principal.kind === "user" ? principal.userId : null }),
});
const partnerRoute = route({ auth: "partner", handler: () => ({ ok: true }) });

const asUser = (headers: Record<string, string>) => call(userRoute, "/api/t", { headers });
const bearer = (token: string) => `Bearer ${token}`;

async function accepted(headers: Record<string, string>, expected: object) {
  const res = await asUser(headers);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual(expected);
}

async function refused(headers: Record<string, string>, message: RegExp) {
  const res = await asUser(headers);
  const error = expectError(res, 401, "unauthorized");
  expect(error.error).toMatch(message);
  expect(error.requestId).toBeTruthy();
}

describe("the platform's Privy form: Bearer <Privy access token> + privy-id-token", () => {
  it("gives the identity token's user: the FID of a linked Farcaster account", async () =>
    accepted(
      { authorization: bearer(await privy.accessToken(DID)), "privy-id-token": await privy.identityToken(DID, 42) },
      { userId: "fid:42", fid: 42, issuer: "privy" },
    ));

  it("gives the Privy DID for a user without Farcaster", async () =>
    accepted(
      { authorization: bearer(await privy.accessToken(DID)), "privy-id-token": await privy.identityToken(DID) },
      { userId: `privy:${DID}`, fid: null, issuer: "privy" },
    ));

  it("accepts the identity token alone in the header, and in both places", async () => {
    const idToken = await privy.identityToken(DID, 42);
    await accepted({ "privy-id-token": idToken }, { userId: "fid:42", fid: 42, issuer: "privy" });
    await accepted(
      { authorization: bearer(idToken), "privy-id-token": idToken },
      { userId: "fid:42", fid: 42, issuer: "privy" },
    );
  });

  it("refuses an access token of another Privy user", async () =>
    refused(
      {
        authorization: bearer(await privy.accessToken(OTHER_DID)),
        "privy-id-token": await privy.identityToken(DID, 42),
      },
      /different Privy users/,
    ));

  it("refuses a Bearer that is not a valid Privy access token", async () => {
    const idToken = await privy.identityToken(DID, 42);
    const expired = await privy.accessToken(DID, { exp: Math.floor(Date.now() / 1000) - 60 });
    for (const auth of ["opaque-token", bearer(expired), await privy.accessToken(DID, { aud: "other-app" })]) {
      await refused(
        { authorization: auth.startsWith("Bearer") ? auth : bearer(auth), "privy-id-token": idToken },
        /Privy access token/,
      );
    }
    // A Quick Auth token of the same FID is not the Privy access token either.
    await refused({ authorization: bearer(await fc.token(42)), "privy-id-token": idToken }, /Privy access token/);
  });

  it("refuses an identity token that fails verification, whatever the Bearer", async () => {
    const access = bearer(await privy.accessToken(DID));
    const expired = await privy.identityToken(DID, 42, { exp: Math.floor(Date.now() / 1000) - 60 });
    const otherApp = await privy.identityToken(DID, 42, { aud: "other-app" });
    for (const idToken of ["not.a.jwt", expired, otherApp, unsignedToken(42), await fc.token(42)]) {
      await refused({ authorization: access, "privy-id-token": idToken }, /privy-id-token/);
    }
    // A Bearer good on its own does not rescue a bad header.
    await refused({ authorization: bearer(await fc.token(42)), "privy-id-token": "not.a.jwt" }, /privy-id-token/);
  });
});

describe("the platform's Farcaster form: fc-id-token", () => {
  it("gives the Quick Auth token's FID, alone or with any Bearer that names no other user", async () => {
    const token = await fc.token(7);
    const expected = { userId: "fid:7", fid: 7, issuer: "farcaster" };
    await accepted({ "fc-id-token": token }, expected);
    await accepted({ authorization: bearer(token), "fc-id-token": token }, expected);
    await accepted({ authorization: bearer(await fc.token(7)), "fc-id-token": token }, expected);
    // Not read: a token this service cannot verify, and a Privy access token (it names no FID).
    await accepted({ authorization: bearer("opaque-session-token"), "fc-id-token": token }, expected);
    await accepted({ authorization: bearer(await privy.accessToken(DID)), "fc-id-token": token }, expected);
  });

  it("refuses a Bearer naming another FID", async () => {
    const token = await fc.token(7);
    await refused({ authorization: bearer(await fc.token(8)), "fc-id-token": token }, /different users/);
    await refused(
      { authorization: bearer(await privy.identityToken(DID, 8)), "fc-id-token": token },
      /different users/,
    );
  });

  it("refuses a header that fails verification, even beside a good Bearer", async () => {
    const good = bearer(await fc.token(7));
    const now = Math.floor(Date.now() / 1000);
    for (const header of [
      "not.a.jwt",
      unsignedToken(7),
      await fc.token(7, { exp: now - 60 }),
      await fc.token(7, { aud: "evil.example" }),
      await fc.token(7, { iss: "https://evil.example" }),
      await privy.identityToken(DID, 7), // a Privy token is not a Quick Auth token
    ]) {
      await refused({ authorization: good, "fc-id-token": header }, /fc-id-token/);
    }
  });
});

describe("both headers", () => {
  it("accepts them when they name the same user", async () =>
    accepted(
      {
        authorization: bearer(await privy.accessToken(DID)),
        "fc-id-token": await fc.token(42),
        "privy-id-token": await privy.identityToken(DID, 42),
      },
      { userId: "fid:42", fid: 42, issuer: "farcaster" },
    ));

  it("refuses them when they name different users", async () => {
    await refused(
      { "fc-id-token": await fc.token(42), "privy-id-token": await privy.identityToken(DID, 43) },
      /fc-id-token and privy-id-token name different users/,
    );
    await refused(
      { "fc-id-token": await fc.token(42), "privy-id-token": await privy.identityToken(DID) },
      /name different users/,
    );
  });
});

describe("today's forms and the other auth modes", () => {
  it("keeps a Bearer alone working: Quick Auth and Privy identity tokens", async () => {
    await accepted({ authorization: bearer(await fc.token(7)) }, { userId: "fid:7", fid: 7, issuer: "farcaster" });
    await accepted(
      { authorization: bearer(await privy.identityToken(DID, 42)) },
      { userId: "fid:42", fid: 42, issuer: "privy" },
    );
    await refused({ authorization: "Bearer not.a.jwt" }, /invalid or expired token/);
  });

  it("treats an empty header as an absent one", async () => {
    await accepted(
      { authorization: bearer(await fc.token(7)), "fc-id-token": "", "privy-id-token": " " },
      { userId: "fid:7", fid: 7, issuer: "farcaster" },
    );
    await refused({ "fc-id-token": "" }, /missing Authorization/);
  });

  it("answers 401 without any credentials and 403 for an API key", async () => {
    await refused({}, /missing Authorization: Bearer token \(or fc-id-token \/ privy-id-token\)/);
    expectError(await asUser({ "x-api-key": await partnerKey("headers") }), 403, "forbidden");
  });

  it("makes an admin FID's header an admin, and a refused one a 401", async () => {
    const res = await call(adminRoute, "/api/t", { headers: { "fc-id-token": await fc.token(1) } });
    expect(res.body).toEqual({ via: "header" });
    const privyAdmin = { "privy-id-token": await privy.identityToken(DID, 1) };
    expect((await call(adminRoute, "/api/t", { headers: privyAdmin })).body).toEqual({ via: "header" });
    expectError(
      await call(adminRoute, "/api/t", { headers: { "fc-id-token": await fc.token(999) } }),
      403,
      "forbidden",
    );
    const conflicting = { authorization: bearer(await fc.token(2)), "fc-id-token": await fc.token(1) };
    const error = expectError(await call(adminRoute, "/api/t", { headers: conflicting }), 401, "unauthorized");
    expect(error.error).toMatch(/the Authorization bearer and fc-id-token name different users/);
  });

  it("on optional routes: the headers' user when they verify, public (never the other user) when refused", async () => {
    const ok = await call(optionalUserRoute, "/api/t", {
      headers: {
        authorization: bearer(await privy.accessToken(DID)),
        "privy-id-token": await privy.identityToken(DID, 5),
      },
    });
    expect(ok.body).toEqual({ kind: "user", userId: "fid:5" });
    const conflicting = await call(optionalUserRoute, "/api/t", {
      headers: { authorization: bearer(await fc.token(8)), "fc-id-token": await fc.token(7) },
    });
    expect(conflicting.body).toEqual({ kind: "public", userId: null });
  });

  it("answers 403 on a partner route for a user in the platform's form", async () => {
    const res = await call(partnerRoute, "/api/t", { headers: { "fc-id-token": await fc.token(7) } });
    expectError(res, 403, "forbidden");
  });
});

describe("CORS preflight", () => {
  it("allows the two headers", () => {
    const allowed = preflight().headers.get("Access-Control-Allow-Headers")!.split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(["authorization", "fc-id-token", "privy-id-token"]));
  });
});

describe("the pretoken routes end to end with the platform's headers", () => {
  it("creates with the Privy form, lists with the Farcaster form, refuses a conflict, deletes", async () => {
    await db().deleteFrom("pretokens").execute();
    const c = chain();
    const privyForm = {
      authorization: bearer(await privy.accessToken(DID)),
      "privy-id-token": await privy.identityToken(DID, 42),
    };
    const created = await call(createPost, "/api/pretoken/v4", {
      headers: privyForm,
      body: {
        keyword: "launch",
        chain_id: 8453,
        token_settings: {
          name: "Pre",
          symbol: "PRE",
          image_url: "https://example.com/pre.png",
          description: "pending",
          admins: [{ admin: c.accounts[2], recipient: c.accounts[2], allocation: 100 }],
          pool_config_type: "standard",
          starting_market_cap: 15,
          fee_config_type: "dynamic",
        },
      },
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.id as string;
    const row = await db().selectFrom("pretokens").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: "fid:42", fid: 42 });

    const listed = await call(pendingGet, "/api/pretoken/pending", {
      headers: { authorization: bearer("opaque"), "fc-id-token": await fc.token(42) },
    });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.pendingPretokens.map((p: { id: string }) => p.id)).toEqual([id]);

    const someoneElse = await call(pendingGet, "/api/pretoken/pending", {
      headers: { "fc-id-token": await fc.token(43) },
    });
    expect(someoneElse.body.pendingPretokens).toEqual([]);

    const conflict = await call(deleteRoute, `/api/pretoken/${id}`, {
      method: "DELETE",
      params: { id },
      headers: { ...privyForm, authorization: bearer(await privy.accessToken(OTHER_DID)) },
    });
    expectError(conflict, 401, "unauthorized");

    const removed = await call(deleteRoute, `/api/pretoken/${id}`, {
      method: "DELETE",
      params: { id },
      headers: privyForm,
    });
    expect(removed.status, removed.text).toBe(200);
    const after = await call(pendingGet, "/api/pretoken/pending", { headers: privyForm });
    expect(after.body.pendingPretokens).toEqual([]);
  });
});
