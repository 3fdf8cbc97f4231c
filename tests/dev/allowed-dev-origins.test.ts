// next.config.mjs's allowedDevOrigins: loopback and the machine's network addresses in the form Next compares
// (the Origin's hostname), plus DEV_ALLOWED_ORIGINS' hosts however they are written; a bad entry names the variable.
import { describe, expect, it } from "vitest";
import type { NetworkInterfaceInfo } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { NextConfig } from "next";
import { allowedDevOrigins } from "@/dev/allowed-dev-origins.mjs";

const nic = (address: string, family: "IPv4" | "IPv6", internal = false) =>
  ({
    address,
    family,
    internal,
    netmask: "",
    mac: "",
    cidr: null,
    ...(family === "IPv6" ? { scopeid: 0 } : {}),
  }) as NetworkInterfaceInfo;
const interfaces = {
  lo: [nic("127.0.0.1", "IPv4", true), nic("::1", "IPv6", true)],
  eth0: [nic("192.168.1.20", "IPv4"), nic("FD00::2", "IPv6"), nic("fe80::1c2d", "IPv6")],
  wlan0: [nic("10.0.0.7", "IPv4")],
};

describe("allowedDevOrigins", () => {
  it("allows loopback and every external address of the machine, IPv6 bracketed as in an Origin", () => {
    expect(allowedDevOrigins("", interfaces)).toEqual([
      "localhost",
      "127.0.0.1",
      "[::1]",
      "192.168.1.20",
      "[fd00::2]",
      "10.0.0.7",
    ]);
  });

  it("adds DEV_ALLOWED_ORIGINS' hosts, written as hosts, host:port, wildcards or origins", () => {
    const hosts = allowedDevOrigins(
      " Box.Example.test:3000, http://203.0.113.9:3000/docs ,*.ts.net,,[fd00::9]:3000",
      {},
    );
    expect(hosts).toEqual([
      "localhost",
      "127.0.0.1",
      "[::1]",
      "box.example.test",
      "203.0.113.9",
      "*.ts.net",
      "[fd00::9]",
    ]);
  });

  it("refuses an entry that is no host, naming the variable", () => {
    expect(() => allowedDevOrigins("ok.test, not a host", {})).toThrow(/DEV_ALLOWED_ORIGINS: "not a host"/);
  });

  it("is what next.config.mjs hands to Next", async () => {
    const configFile = pathToFileURL(path.resolve(import.meta.dirname, "../../next.config.mjs")).href;
    const nextConfig: NextConfig = (await import(configFile)).default;
    expect(nextConfig.allowedDevOrigins).toEqual(allowedDevOrigins());
    expect(nextConfig.allowedDevOrigins).toEqual(expect.arrayContaining(["127.0.0.1", "localhost"]));
  });
});
