// The webhook target guard: every address form (IPv4, IPv6, IPv4-mapped, IPv4-compatible, 6to4, Teredo, NAT64),
// written in the URL and given as a DNS answer, at registration, before each delivery and in the socket's lookup.
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { resetConfig } from "@/lib/core/config";
import { HttpError } from "@/lib/core/errors";
import {
  assertSafeTarget,
  classifyAddress,
  isInternalAddress,
  safeLookup,
  UnsafeTargetError,
  validateTargetUrl,
} from "@/lib/domains/webhooks/ssrf";
import { postSigned } from "@/lib/domains/webhooks/deliver";

type Answer = { address: string; family: number };
/** Names under .hooks.test answer from here (one list per lookup, the last one repeating); others resolve for real. */
const answers = vi.hoisted(() => new Map<string, Answer[][]>());
vi.mock("node:dns", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns")>();
  const lookup = (hostname: string, options: any, callback: any) => {
    const queued = answers.get(hostname);
    if (!queued) return real.lookup(hostname, options, callback);
    const list = queued.length > 1 ? queued.shift()! : queued[0];
    if (options?.all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  };
  return { ...real, default: { ...real, lookup }, lookup };
});

const answer = (address: string): Answer => ({ address, family: address.includes(":") ? 6 : 4 });
const inUrl = (address: string) => (address.includes(":") ? `[${address}]` : address);
const lookupOnce = (hostname: string) =>
  new Promise<string>((resolve, reject) =>
    safeLookup(hostname, {}, (error, address) => (error ? reject(error) : resolve(address as string))),
  );

const setAllowPrivate = (value: "true" | "false") => {
  process.env.WEBHOOK_ALLOW_PRIVATE = value;
  resetConfig();
};
beforeEach(() => {
  answers.clear();
  setAllowPrivate("false");
});
afterAll(() => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  resetConfig();
});

/** Not globally routable unicast, each with what it is (the embedded IPv4 for the forms that carry one). */
const REFUSED: [string, string][] = [
  ["127.0.0.1", "IPv4 loopback"],
  ["10.1.2.3", "IPv4 private"],
  ["172.16.5.4", "IPv4 private"],
  ["192.168.1.1", "IPv4 private"],
  ["169.254.169.254", "IPv4 link-local (cloud metadata)"],
  ["100.64.0.1", "IPv4 carrier-grade NAT"],
  ["0.0.0.0", "IPv4 unspecified"],
  ["255.255.255.255", "IPv4 broadcast"],
  ["224.0.0.1", "IPv4 multicast"],
  ["192.0.2.1", "IPv4 documentation"],
  ["198.18.0.1", "IPv4 benchmarking"],
  ["240.0.0.1", "IPv4 reserved"],
  ["192.88.99.1", "IPv4 6to4 relay anycast"],
  ["192.175.48.1", "IPv4 AS112"],
  ["192.52.193.1", "IPv4 AMT"],
  ["::1", "IPv6 loopback"],
  ["::", "IPv6 unspecified"],
  ["fe80::1", "IPv6 link-local"],
  ["fd00::1", "IPv6 unique local"],
  ["fec0::1", "IPv6 site-local"],
  ["ff02::1", "IPv6 multicast"],
  ["2001:db8::1", "IPv6 documentation"],
  ["100::1", "IPv6 discard"],
  ["2001:2::1", "IPv6 benchmarking"],
  ["2001:3::1", "IPv6 AMT"],
  ["2001:20::1", "IPv6 ORCHIDv2"],
  ["5f00::1", "IPv6 segment routing"],
  ["4000::1", "IPv6 outside the global unicast space 2000::/3"],
  ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
  ["::ffff:10.0.0.1", "IPv4-mapped private"],
  ["::ffff:169.254.169.254", "IPv4-mapped link-local"],
  ["::ffff:0:127.0.0.1", "IPv4-translated loopback"],
  ["::127.0.0.1", "IPv4-compatible loopback (the URL parser stores [::7f00:1])"],
  ["::10.0.0.1", "IPv4-compatible private"],
  ["::8.8.8.8", "IPv4-compatible (deprecated, not routable) even of a public IPv4"],
  ["2002:7f00:1::", "6to4 of 127.0.0.1"],
  ["2002:a00:1::1", "6to4 of 10.0.0.1"],
  ["2002:a9fe:a9fe::", "6to4 of 169.254.169.254"],
  ["2002:808:808::", "6to4 even of a public IPv4"],
  ["2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo, client 127.0.0.1"],
  ["2001:0:7f00:1::", "Teredo, server 127.0.0.1"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo, client 192.0.2.45"],
  ["64:ff9b::127.0.0.1", "NAT64 of 127.0.0.1"],
  ["64:ff9b::a9fe:a9fe", "NAT64 of 169.254.169.254"],
  ["64:ff9b::8.8.8.8", "NAT64 even of a public IPv4"],
  ["64:ff9b:1::a00:1", "NAT64 local-use prefix"],
];
const ALLOWED = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.215.14",
  "2606:4700::1111",
  "2a00:1450:4001:81b::200e",
  "::ffff:8.8.8.8",
];

describe("webhook target guard", () => {
  it.each(REFUSED)("refuses %s (%s) written in the URL and as a DNS answer", async (address) => {
    expect(isInternalAddress(address), address).toBe(true);
    await expect(assertSafeTarget(`https://${inUrl(address)}/h`)).rejects.toThrow(/internal address/);
    await expect(validateTargetUrl(`https://${inUrl(address)}/h`)).rejects.toBeInstanceOf(HttpError);
    const name = `target.hooks.test`;
    answers.set(name, [[answer("93.184.215.14"), answer(address)]]);
    await expect(assertSafeTarget(`https://${name}/h`)).rejects.toThrow(/resolves to an internal address/);
    await expect(lookupOnce(name)).rejects.toBeInstanceOf(UnsafeTargetError);
  });

  it.each(ALLOWED)("allows the public address %s written in the URL and as a DNS answer", async (address) => {
    expect(isInternalAddress(address), address).toBe(false);
    expect((await assertSafeTarget(`https://${inUrl(address)}/h`)).protocol).toBe("https:");
    answers.set("public.hooks.test", [[answer(address)]]);
    expect((await assertSafeTarget("https://public.hooks.test/h")).hostname).toBe("public.hooks.test");
    expect(await lookupOnce("public.hooks.test")).toBe(address);
  });

  it("names the IPv4 each transition form carries", () => {
    expect(classifyAddress("::ffff:127.0.0.1")).toEqual({
      range: "loopback",
      embedded: [{ form: "ipv4Mapped", address: "127.0.0.1", range: "loopback" }],
    });
    expect(classifyAddress("::7f00:1")).toEqual({
      range: "ipv4Compatible",
      embedded: [{ form: "ipv4Compatible", address: "127.0.0.1", range: "loopback" }],
    });
    expect(classifyAddress("2002:7f00:1::")).toEqual({
      range: "6to4",
      embedded: [{ form: "6to4", address: "127.0.0.1", range: "loopback" }],
    });
    expect(classifyAddress("2001:0:4136:e378:8000:63bf:80ff:fffe")).toEqual({
      range: "teredo",
      embedded: [
        { form: "teredoServer", address: "65.54.227.120", range: "unicast" },
        { form: "teredoClient", address: "127.0.0.1", range: "loopback" },
      ],
    });
    expect(classifyAddress("64:ff9b::a9fe:a9fe")).toEqual({
      range: "rfc6052",
      embedded: [{ form: "nat64", address: "169.254.169.254", range: "linkLocal" }],
    });
    expect(classifyAddress("2606:4700::1111")).toEqual({ range: "unicast", embedded: [] });
    expect(classifyAddress("not an address").range).toBe("invalid");
  });

  it("refuses before a delivery a name whose DNS answer turned internal after registration (rebinding)", async () => {
    answers.set("rebind.hooks.test", [[answer("93.184.215.14")], [answer("::7f00:1")]]);
    expect(await validateTargetUrl("https://rebind.hooks.test/h")).toBe("https://rebind.hooks.test/h");
    const attempt = await postSigned("https://rebind.hooks.test/h", "whsec_test", "delivery-1", "{}");
    expect(attempt).toMatchObject({ ok: false, responseCode: null });
    expect(attempt.error).toMatch(/internal address/);
  });

  it("refuses in the socket's lookup an answer that turned internal after the delivery's own check", async () => {
    answers.set("late.hooks.test", [[answer("93.184.215.14")], [answer("2002:7f00:1::")]]);
    const attempt = await postSigned("https://late.hooks.test/h", "whsec_test", "delivery-2", "{}");
    expect(attempt).toMatchObject({ ok: false, responseCode: null });
    expect(attempt.error).toMatch(/resolves to an internal address/);
  });

  it("lets WEBHOOK_ALLOW_PRIVATE=true through as before (local receivers)", async () => {
    setAllowPrivate("true");
    expect((await assertSafeTarget("http://[::7f00:1]:8080/h")).hostname).toBe("[::7f00:1]");
    answers.set("local.hooks.test", [[answer("127.0.0.1")]]);
    expect(await lookupOnce("local.hooks.test")).toBe("127.0.0.1");
  });
});
