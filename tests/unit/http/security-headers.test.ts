// The pages' Content-Security-Policy as proxy.ts sets it: a fresh nonce per page request, handed to Next on the
// request (which puts it on its scripts) and sent on the answer; no policy work on the API or the pictures.
// The built server and the browser check the same (tests/e2e/run.ts: headers, and no violation on any page).
import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { isPagePath, pageContentSecurityPolicy } from "@/lib/http/security-headers";
import { proxy } from "@/proxy";

const run = async (path: string) => proxy(new NextRequest(`http://localhost:3000${path}`));
const nonceOf = (policy: string | null) => /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy ?? "")?.[1];

describe("the pages' Content-Security-Policy", () => {
  it("is set on every page with a nonce of its own, on the answer and on the request Next renders", async () => {
    const seen = new Set<string>();
    for (const path of ["/", "/docs", "/leaderboard", "/tokens/0xabc?chainId=8453", "/creators/0xabc", "/nope"]) {
      const answer = (await run(path))!;
      const policy = answer.headers.get("content-security-policy");
      const nonce = nonceOf(policy);
      expect(nonce, path).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      seen.add(nonce!);
      // NextResponse.next({ request: { headers } }) passes the request's headers to Next this way.
      expect(answer.headers.get("x-middleware-request-content-security-policy"), path).toBe(policy);
      expect(policy, path).toContain("frame-ancestors 'none'");
    }
    expect(seen.size).toBe(6);
  });

  it("allows only nonce-bearing scripts, and pictures of this origin", () => {
    const policy = pageContentSecurityPolicy("abc", false);
    const directive = (name: string) => policy.split("; ").find((d) => d.startsWith(`${name} `));
    expect(directive("script-src")).toBe("script-src 'nonce-abc' 'strict-dynamic'");
    expect(directive("img-src")).toBe("img-src 'self' data:");
    expect(directive("default-src")).toBe("default-src 'self'");
    expect(directive("object-src")).toBe("object-src 'none'");
    expect(directive("base-uri")).toBe("base-uri 'none'");
    expect(pageContentSecurityPolicy("abc", true)).toContain("'unsafe-eval'");
  });

  it("gives the 404 page of a malformed page path a policy too", async () => {
    const answer = (await run("/tokens/%ZZ"))!;
    expect(new URL(answer.headers.get("x-middleware-rewrite")!).pathname).toMatch(/^\/_/);
    expect(nonceOf(answer.headers.get("content-security-policy"))).toBeDefined();
  });

  it("leaves the API, Next's files and the pictures alone", async () => {
    for (const path of [
      "/api/tokens",
      "/api",
      "/_next/static/chunks/a.js",
      "/placeholders/0xab.svg",
      "/images/tokens/1/0xab",
    ]) {
      expect(isPagePath(path), path).toBe(false);
      expect(await run(path), path).toBeUndefined();
    }
    expect(isPagePath("/apiary")).toBe(true);
  });
});
