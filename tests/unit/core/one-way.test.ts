// One way for each thing, held here where a lint rule cannot say it: the service's sources use the one helper that
// does a job rather than a second copy of it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { staleCursor } from "@/lib/core/cursor";
import { ProviderUnavailableError, toHttpError } from "@/lib/core/errors";
import { ChainUnavailableError } from "@/lib/platform/chain/errors";
import { MarketProviderError } from "@/lib/platform/market-data/geckoterminal";
import { ProviderError } from "@/lib/platform/neynar/client";

const root = path.resolve(import.meta.dirname, "../../..");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

const service = ["lib", "app", "db"].flatMap(sources);

/** The files (other than `home`) whose text matches `pattern`. */
const copiesOutside = (pattern: RegExp, home: string) =>
  service.filter((file) => file !== home && pattern.test(readFileSync(path.join(root, file), "utf8")));

describe("one way for each thing", () => {
  it("parses a boolean text with zBool (lib/core/input.ts) only", () => {
    expect(copiesOutside(/z\.enum\(\[\s*"true",\s*"false"/, "lib/core/input.ts")).toEqual([]);
  });

  it("answers a cursor the data moved under with staleCursor (lib/core/cursor.ts) only: one 409", () => {
    // A refusal whose message speaks of the cursor is either the codec's 400 (zCursorOf) or this one answer.
    expect(copiesOutside(/\b(badRequest|conflict)\(\s*[`"'][^`"']*cursor/i, "lib/core/cursor.ts")).toEqual([]);
    const answer = staleCursor("the leaderboard was re-scored");
    expect({ status: answer.status, code: answer.code, message: answer.message }).toEqual({
      status: 409,
      code: "conflict",
      message: "cursor: the leaderboard was re-scored after this cursor was made; start again without a cursor",
    });
  });

  it("names the database executor db: Database, trx only for a Transaction<DB>, executor only defaulting to db()", () => {
    // The rule is stated beside `export type Database` in db/index.ts.
    const otherName =
      /\b(executor|conn|trx|tx)\??: (Database|Kysely<DB>|Transaction<DB> \| (Database|Kysely<DB>))(?!\s*=\s*db\(\))/;
    expect(copiesOutside(otherName, "")).toEqual([]);
  });

  it("checksums an address with checksum()/displayAddress() (lib/core/evm.ts), viem's getAddress only on input", () => {
    const mayCallGetAddress = [
      "lib/core/evm.ts", // checksum() and displayAddress() themselves
      "lib/core/answers.ts", // tests whether an answer's text is already in EIP-55 form
      "lib/platform/chain/settings.ts", // reads the configuration's addresses (input), once at start
      "lib/domains/launch/deploy/config.ts", // a deploy request's addresses (input) into calldata, never answered
      "lib/domains/quotes/providers/odos.ts", // a quote request's addresses (input) as the aggregator takes them
    ];
    expect(copiesOutside(/\bgetAddress\(/, "").filter((file) => !mayCallGetAddress.includes(file))).toEqual([]);
  });

  it("makes an HttpError through a constructor of lib/core/errors.ts only", () => {
    expect(copiesOutside(/new HttpError\(/, "lib/core/errors.ts")).toEqual([]);
  });

  it("answers 503 in one place: lib/core/errors.ts builds it once, nothing else names the status or an error's name", () => {
    expect(copiesOutside(/new HttpError\(\s*503|status:\s*503\b/, "lib/core/errors.ts")).toEqual([]);
    expect(readFileSync(path.join(root, "lib/core/errors.ts"), "utf8").match(/new HttpError\(\s*503/g)).toHaveLength(1);
    expect(copiesOutside(/name\s*===\s*["'`]\w*Unavailable/, "")).toEqual([]);
    const unrelated = copiesOutside(
      /class \w*UnavailableError extends (?!ProviderUnavailableError\b)/,
      "lib/core/errors.ts",
    );
    expect(unrelated).toEqual([]);
  });

  it("makes a provider's outage a ProviderUnavailableError, answered with its Retry-After and the one 503", () => {
    const database = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });
    const cases: [unknown, string, string, string][] = [
      [
        new ChainUnavailableError(8453, "timeout", "the RPC timed out"),
        "provider_unavailable",
        "the chain RPC is unavailable",
        "5",
      ],
      [
        new ChainUnavailableError(8453, "not_configured", "no factory"),
        "provider_unavailable",
        "the chain RPC is unavailable",
        "60",
      ],
      [
        new ProviderError("the profile provider timed out", 7),
        "provider_unavailable",
        "the profile provider is unavailable; try again",
        "7",
      ],
      [
        new MarketProviderError("the aggregator answered 502", 30),
        "provider_unavailable",
        "the aggregator answered 502",
        "30",
      ],
      [database, "provider_unavailable", "the database is unavailable", "5"],
      [
        Object.assign(new Error("deadlock"), { code: "40P01" }),
        "provider_unavailable",
        "the database was busy; try again",
        "1",
      ],
      [
        Object.assign(new Error("canceling statement"), { code: "57014" }),
        "timeout",
        "the request took too long; try again",
        "5",
      ],
    ];
    for (const [error, code, message, retryAfter] of cases) {
      const answer = toHttpError(error);
      expect({ status: answer.status, code: answer.code, message: answer.message, headers: answer.headers }).toEqual({
        status: 503,
        code,
        message,
        headers: { "Retry-After": retryAfter },
      });
    }
    const chain = new ChainUnavailableError(8453, "unreachable", "the RPC is unreachable", { cause: database });
    expect(chain).toBeInstanceOf(ProviderUnavailableError);
    expect(chain).toMatchObject({ provider: "chain", chainId: 8453, retryAfterSeconds: 5, cause: database });
    expect(chain.message).toBe("chain 8453: the RPC is unreachable");
  });
});
