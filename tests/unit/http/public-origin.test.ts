// Whether the public origin is HTTPS: PUBLIC_BASE_URL, else the scheme a trusted proxy forwards, else the request's.
import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/core/config";
import { servedOverHttps } from "@/lib/http/public-origin";

const request = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });
const local = (headers: Record<string, string> = {}) => request("http://localhost:3000/api/admin/verify", headers);

function setEnv(env: Record<string, string>) {
  Object.assign(process.env, env);
  resetConfig();
}
afterEach(() => {
  delete process.env.PUBLIC_BASE_URL;
  delete process.env.TRUSTED_PROXY;
  resetConfig();
});

describe("servedOverHttps", () => {
  it("without configuration reads the request's own scheme", () => {
    expect(servedOverHttps(local())).toBe(false);
    expect(servedOverHttps(request("http://api.example.com/x"))).toBe(false);
    expect(servedOverHttps(request("https://api.example.com/x"))).toBe(true);
  });

  it("takes PUBLIC_BASE_URL's scheme first", () => {
    setEnv({ PUBLIC_BASE_URL: "https://api.example.com", TRUSTED_PROXY: "1" });
    expect(servedOverHttps(local({ "x-forwarded-proto": "http" }))).toBe(true);
    setEnv({ PUBLIC_BASE_URL: "http://box.lan:3000" });
    expect(servedOverHttps(request("https://box.lan/x", { "x-forwarded-proto": "https" }))).toBe(false);
  });

  it("trusts X-Forwarded-Proto only as TRUSTED_PROXY vouches for it", () => {
    const https = { "x-forwarded-proto": "https" };
    expect(servedOverHttps(local(https))).toBe(false); // none, the default off Vercel
    setEnv({ TRUSTED_PROXY: "vercel" });
    expect(servedOverHttps(local(https))).toBe(true);
    setEnv({ TRUSTED_PROXY: "1" });
    expect(servedOverHttps(local({ "x-forwarded-proto": "HTTPS" }))).toBe(true);
    expect(servedOverHttps(request("https://api.example.com/x", { "x-forwarded-proto": "http" }))).toBe(false);
    expect(servedOverHttps(local())).toBe(false);
    // Appending proxies: the outermost trusted one's value, Nth from the right; a client's own hop is left of it.
    expect(servedOverHttps(local({ "x-forwarded-proto": "http, https" }))).toBe(true);
    setEnv({ TRUSTED_PROXY: "2" });
    expect(servedOverHttps(local({ "x-forwarded-proto": "https, https, http" }))).toBe(true);
    expect(servedOverHttps(local({ "x-forwarded-proto": "https, http, https" }))).toBe(false);
    expect(servedOverHttps(local(https))).toBe(true);
  });
});
