// Per-chain variables are checked at start-up: a bad value stops the process naming the variable (as
// lib/core/config.ts does for its own), for 8453 and every chain id a per-chain variable names. A production
// start also stops naming each variable production cannot do without, and logs the optional features left off.
import { afterEach, describe, expect, it, vi } from "vitest";
import { CLANKERS } from "clanker-sdk";
import { getAddress } from "viem";
import { ConfigError, resetConfig } from "@/lib/core/config";
import { chainSettings, checkChainSettings, PRODUCTION_DEFAULTS } from "@/lib/platform/chain/settings";
import { checkServerConfiguration, prepareServerProcess } from "@/lib/http/startup";

const KEY = `0x${"11".repeat(32)}`;
const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;

function failure(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("checkChainSettings", () => {
  it("accepts valid settings, and an environment without chain variables (8453's defaults)", () => {
    expect(() => checkChainSettings(env({}))).not.toThrow();
    expect(() =>
      checkChainSettings(
        env({
          RPC_URL_8453: "http://127.0.0.1:8545",
          RPC_URL_10: "wss://rpc.example/ws",
          FACTORY_ADDRESS_10: `0x${"ab".repeat(20)}`,
          DEPLOYER_PRIVATE_KEY: KEY,
          CHAIN_TIMEOUT_MS: "5000",
        }),
      ),
    ).not.toThrow();
    expect(chainSettings(8453, env({})).contracts).toEqual(PRODUCTION_DEFAULTS[8453]);
  });

  it("names every bad variable, on 8453 and on chains named only by a contract variable", () => {
    const error = failure(() =>
      checkChainSettings(
        env({
          RPC_URL_8453: "localhost:8545",
          WETH_ADDRESS_8453: "0x1234",
          FACTORY_ADDRESS_10: "not-an-address",
          DEPLOYER_PRIVATE_KEY: "0xdead",
          CHAIN_TIMEOUT_MS: "5",
        }),
      ),
    );
    expect(error.message.split("\n")).toEqual([
      "invalid environment:",
      "  WETH_ADDRESS_8453: must be 0x followed by 40 hex digits",
      "  RPC_URL_8453: must be an http(s) or ws(s) URL",
      "  DEPLOYER_PRIVATE_KEY: must be 32 bytes of hex",
      expect.stringMatching(/^ {2}CHAIN_TIMEOUT_MS: /),
      "  FACTORY_ADDRESS_10: must be 0x followed by 40 hex digits",
    ]);
  });

  it("checks a chain named by any per-chain variable", () => {
    expect(failure(() => checkChainSettings(env({ PAIRED_TOKEN_WETH_POOLS_10: "0x1:0x2" }))).message).toMatch(
      /^ {2}PAIRED_TOKEN_WETH_POOLS_10: /m,
    );
    expect(failure(() => checkChainSettings(env({ RPC_URL_137: "ftp://x" }))).message).toMatch(/^ {2}RPC_URL_137: /m);
    expect(failure(() => checkChainSettings(env({ TOKEN_INDEX_START_BLOCK_10: "-5" }))).message).toMatch(
      /^ {2}TOKEN_INDEX_START_BLOCK_10: /m,
    );
    expect(chainSettings(10, env({ TOKEN_INDEX_START_BLOCK_10: "123" })).tokenIndexStartBlock).toBe(123);
  });

  it("reads PAIRED_TOKEN_WETH_POOLS as token:pool address pairs, spaces allowed around the commas only", () => {
    const [a, b, c, d] = ["aa", "bb", "cc", "dd"].map((h) => `0x${h.repeat(20)}`);
    const pools = chainSettings(
      10,
      env({ PAIRED_TOKEN_WETH_POOLS_10: ` 0x${"AA".repeat(20)}:${b} ,  ${c}:${d}` }),
    ).pairedTokenWethPools;
    expect(pools).toEqual({ [a!]: getAddress(b!), [c!]: getAddress(d!) });
    for (const bad of [`${a}:${b},`, `${a} : ${b}`, `${a}:${b}:${c}`, `${a}`, `${a}:0x${"bb".repeat(19)}`]) {
      expect(failure(() => chainSettings(10, env({ PAIRED_TOKEN_WETH_POOLS_10: bad }))).message).toBe(
        "invalid environment:\n  PAIRED_TOKEN_WETH_POOLS_10: must be comma-separated token:pool address pairs",
      );
    }
  });

  it("ignores variables that only look per-chain", () => {
    expect(() => checkChainSettings(env({ SOMETHING_ELSE_10: "x", RPC_URL_X: "nope" }))).not.toThrow();
  });
});

describe("the production contracts", () => {
  it("are the platform SDK's v4.1 table: V2 fee hooks, the fee-conversion locker and the sniper auction; a variable wins", () => {
    expect(chainSettings(8453, env({})).contracts).toMatchObject({
      locker: "0x63D2DfEA64b3433F4071A98665bcD7Ca14d93496",
      staticFeeHook: "0xb429d62f8f3bFFb98CdB9569533eA23bF0Ba28CC",
      dynamicFeeHook: "0xd60D6B218116cFd801E28F78d011a203D2b068Cc",
      mevModule: "0xebB25BB797D82CB78E1bc70406b13233c0854413",
    });
    const other = `0x${"ab".repeat(20)}`;
    expect(chainSettings(8453, env({ MEV_MODULE_ADDRESS_8453: other })).contracts.mevModule).toBe(getAddress(other));
    // Previous-generation entries of the SDK's table are left out: a deployment there names the variable.
    expect(chainSettings(84532, env({})).contracts.mevModule).toBeUndefined();
    expect(chainSettings(84532, env({})).contracts.staticFeeHook).toBe("0x11b51DBC2f7F683b81CeDa83DC0078D57bA328cc");
    expect(chainSettings(42161, env({})).contracts).not.toHaveProperty("staticFeeHook");
    expect(chainSettings(143, env({})).contracts.dynamicFeeHook).toBeUndefined();
    expect(chainSettings(56, env({})).contracts.weth).toBe("0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c");
    expect(chainSettings(10, env({})).contracts).toEqual({});
  });

  it("have the presale extension wherever the SDK publishes one for v4", () => {
    const published = Object.values(CLANKERS).flatMap((c) =>
      c.type === "clanker_v4" && "presale" in c.related ? [[c.chainId, c.related.presale] as const] : [],
    );
    expect(published.length).toBeGreaterThan(0);
    for (const [chainId, presale] of published) expect(PRODUCTION_DEFAULTS[chainId]?.presale).toBe(presale);
  });
});

describe("prepareServerProcess", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    resetConfig();
  });

  /** A Vercel production deployment with a database and nothing else. */
  function stubVercelProduction() {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("VERCEL", "1");
    vi.stubEnv("VERCEL_ENV", "production");
    vi.stubEnv("VERCEL_PROJECT_PRODUCTION_URL", "api.tls.example");
    vi.stubEnv("DATABASE_URL", "postgres://u:p@127.0.0.1:1/db");
    for (const name of ["QSTASH_TOKEN", "QSTASH_CURRENT_SIGNING_KEY", "QSTASH_NEXT_SIGNING_KEY", "CRON_SECRET"])
      vi.stubEnv(name, undefined);
    vi.stubEnv("SESSION_SECRET", undefined);
    vi.stubEnv("ADMIN_SECRET", undefined);
    vi.stubEnv("JOB_WORKER", undefined);
    resetConfig();
  }

  it("stops a production start on Vercel without QStash or CRON_SECRET, naming each variable and why", () => {
    stubVercelProduction();
    const exit = vi.spyOn(process, "exit").mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => prepareServerProcess()).toThrow("exit 1");
    expect(exit).toHaveBeenCalledWith(1);
    const lines = String(printed.mock.calls[0]?.[0]).split("\n");
    expect(lines[0]).toBe("incomplete environment for production:");
    expect(lines.slice(1).map((l) => /^ {2}([A-Z_]+): .{30,}$/.exec(l)?.[1])).toEqual(["QSTASH_TOKEN", "CRON_SECRET"]);
  });

  it("starts when only optional features are off, logging a warning for each (SESSION_SECRET here)", () => {
    stubVercelProduction();
    vi.stubEnv("QSTASH_TOKEN", "token");
    vi.stubEnv("QSTASH_CURRENT_SIGNING_KEY", "sig_current");
    vi.stubEnv("QSTASH_NEXT_SIGNING_KEY", "sig_next");
    vi.stubEnv("CRON_SECRET", "c".repeat(16));
    vi.stubEnv("LOG_LEVEL", "warn");
    resetConfig();
    const warned = vi.spyOn(process.stderr, "write").mockReturnValue(true);
    expect(() => checkServerConfiguration()).not.toThrow();
    const logged = warned.mock.calls.map(([line]) => JSON.parse(String(line)));
    expect(logged).toEqual([
      expect.objectContaining({
        level: "warn",
        variable: "SESSION_SECRET",
        message: expect.stringMatching(/^SESSION_SECRET: /),
      }),
    ]);
  });

  it("checks nothing of production during `next build` (not a start; the build step checks Vercel builds)", () => {
    stubVercelProduction();
    vi.stubEnv("NEXT_PHASE", "phase-production-build");
    expect(() => checkServerConfiguration()).not.toThrow();
  });

  it("stops start-up with exit code 1 and the variable's name when a per-chain value is bad", async () => {
    vi.stubEnv("PRESALE_ADDRESS_84532", "0xnope");
    const exit = vi.spyOn(process, "exit").mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => prepareServerProcess()).toThrow("exit 1");
    expect(exit).toHaveBeenCalledWith(1);
    expect(printed).toHaveBeenCalledWith(
      "invalid environment:\n  PRESALE_ADDRESS_84532: must be 0x followed by 40 hex digits",
    );
  });
});
