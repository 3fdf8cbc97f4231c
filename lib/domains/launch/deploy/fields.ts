// Field schemas and the validation helper shared by the deploy shapes and pretokens: every violation of a
// body is collected (field rules from zod, cross-field rules from plain functions) and answered in one 400.
import { log } from "@/lib/core/log";
import { z, type ZodType } from "zod";
import { badRequest } from "@/lib/core/errors";
import { zAddress } from "@/lib/core/input";
import { BPS_PLACES, MILLIONTHS_PLACES, percentToBps, percentToMillionths } from "./units";

export type Issue = { in: "body"; path: string; message: string };
/** A cross-field rule: reads the raw body defensively (fields may be invalid) and reports violations. */
export type CrossRule = (raw: Record<string, unknown>, add: (path: string, message: string) => void) => void;

// Control characters would end up in on-chain strings and JSON metadata; nothing legitimate needs them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the class names the control characters in order to refuse them
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

export const text = (max: number, min = 0) =>
  z
    .string()
    .trim()
    .min(min, min === 1 ? "must not be empty" : `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`)
    .regex(NO_CONTROL, "must not contain control characters");

export const TOKEN_NAME_MAX = 100;
export const TOKEN_SYMBOL_MAX = 20;
export const DESCRIPTION_MAX = 1000;
export const URL_MAX = 2048;
export const URLS_MAX = 10;

export const tokenName = text(TOKEN_NAME_MAX, 1).describe(
  `the token's name, 1 to ${TOKEN_NAME_MAX} characters, no control characters`,
);
export const tokenSymbol = text(TOKEN_SYMBOL_MAX, 1)
  .regex(/^\S*$/, "must not contain spaces")
  .describe(`the token's symbol, 1 to ${TOKEN_SYMBOL_MAX} characters, no spaces`);

export const MAX_REWARD_RECIPIENTS = 7;
export const VAULT_MIN_LOCKUP_SECONDS = 604_800;

/** The examples' addresses (any address will do). */
export const EXAMPLE_ADDRESSES = {
  admin: "0x1111111111111111111111111111111111111111",
  requestor: "0x2222222222222222222222222222222222222222",
  group: ["0x3333333333333333333333333333333333333333", "0x4444444444444444444444444444444444444444"],
} as const;

/** http(s) or ipfs URL, at most 2048 characters. */
export const url = z
  .string()
  .trim()
  .max(URL_MAX, `must be at most ${URL_MAX} characters`)
  .refine((v) => {
    try {
      const parsed = new URL(v);
      return ["http:", "https:", "ipfs:"].includes(parsed.protocol) && NO_CONTROL.test(v);
    } catch {
      return false;
    }
  }, "must be an http(s):// or ipfs:// URL");

/** A token's image: a URL, or `""`, which the platform's clients and SDK send for none (then: no image). */
export const optionalImage = z.union([z.literal("").transform(() => undefined), url]).optional();

/** The SDK's word for the chain's WETH as a paired token, any case. */
export const WETH_WORD = /^\s*weth\s*$/i;

/** A paired token: an address, or WETH_WORD, which is the chain's WETH, as leaving it out is (undefined). */
export const pairedTokenAddress = z
  .union([
    z
      .string()
      .regex(WETH_WORD)
      .transform(() => undefined),
    zAddress,
  ])
  .optional();

/** A social link: a plain URL (its platform is read from the host) or `{platform, url}`. */
export const socialLink = z.union([
  url,
  z.object({
    platform: text(32, 1).describe("the link's platform, 1 to 32 characters (e.g. x, telegram, website)"),
    url: url.describe("the link: an http(s) or ipfs URL of at most 2048 characters"),
  }),
]);
export const urls = <T extends z.ZodType>(item: T) => z.array(item).max(URLS_MAX, `at most ${URLS_MAX} URLs`);

/** 32 URL-safe characters: the key also appears in GET /api/tokens/deploy/{requestKey}. */
export const requestKey = z
  .string()
  .regex(/^[A-Za-z0-9_.~-]{32}$/, "must be exactly 32 characters from A-Z a-z 0-9 _ . ~ -")
  .describe(
    "the client's idempotency key, exactly 32 characters of A-Z a-z 0-9 _ . ~ -: the same key and body answer the first answer again (another body: 422), and GET /api/tokens/deploy/{requestKey} polls the deployment",
  );

export const address = zAddress;

/** A percent in [min, max] convertible to whole basis points; `exclusiveMin` rejects min itself. */
export const bpsPercent = (min: number, max: number, exclusiveMin = false) =>
  z
    .number()
    .refine(
      (v) => (exclusiveMin ? v > min : v >= min),
      exclusiveMin ? `must be greater than ${min}` : `must be at least ${min}`,
    )
    .max(max, `must be at most ${max}`)
    .refine(
      (v) => v < 0 || percentToBps(v) !== null,
      `must have at most ${BPS_PLACES} decimal places (whole basis points)`,
    );

/** A fee percent in [min, max] convertible to whole millionths (1% = 10,000). */
export const feePercent = (min: number, max: number) =>
  z
    .number()
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`)
    .refine(
      (v) => v < 0 || percentToMillionths(v) !== null,
      `must have at most ${MILLIONTHS_PLACES} decimal places (whole millionths)`,
    );

export const seconds = (min: number) =>
  z.number().int("must be a whole number of seconds").min(min, `must be at least ${min}`).max(Number.MAX_SAFE_INTEGER);

/** The token's social context, as the SDK's context (ids may also arrive as numbers). */
export const socialContext = z.object({
  interface: text(64).optional().describe("the system the token was deployed through"),
  platform: text(64).optional().describe("the social platform the deployment came from, e.g. farcaster"),
  messageId: text(256).optional().describe("the message on that platform that asked for the token"),
  id: z
    .union([text(64), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)])
    .optional()
    .describe("the poster's id on that platform (a number is written as its decimal text)"),
});

/** Airdrops: lockup at least a day; amount in whole tokens, 25 basis points to 90% of the 100 billion supply. */
export const AIRDROP_MIN_LOCKUP_SECONDS = 86_400;
export const AIRDROP_MIN_TOKENS = 250_000_000;
export const AIRDROP_MAX_TOKENS = 90_000_000_000;

/** A market cap in whole paired tokens: positive, finite. */
export const marketCap = (min = 0) =>
  z
    .number()
    .refine(
      (v) => Number.isFinite(v) && (min > 0 ? v >= min : v > 0),
      min > 0 ? `must be at least ${min}` : "must be greater than 0",
    );

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
/** For cross-field rules, which read the raw body: a finite number, a member that is present. */
export const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
export const isGiven = (v: unknown) => v !== undefined;

/**
 * Parses `raw` with `schema` and runs `rules` over it; throws one 400 listing every violation (zod issues
 * and rule violations, in `details`), else returns the parsed value.
 */
/**
 * Members of `raw` that the parsed body does not carry (zod drops members a schema does not name): the
 * platform ignores unknown members, and so does the service; they are logged, never stored.
 */
export function unknownMembers(raw: unknown, parsed: unknown, path = ""): string[] {
  if (Array.isArray(raw) && Array.isArray(parsed))
    return raw.flatMap((v, i) => unknownMembers(v, parsed[i], `${path}${i}.`));
  if (!isRecord(raw) || !isRecord(parsed)) return [];
  return Object.keys(raw).flatMap((key) =>
    key in parsed ? unknownMembers(raw[key], parsed[key], `${path}${key}.`) : [`${path}${key}`],
  );
}

export function validateAll<T>(schema: ZodType<T>, raw: unknown, rules: CrossRule[] = []): T {
  const result = schema.safeParse(raw);
  const issues: Issue[] = result.success
    ? []
    : result.error.issues.map((i) => ({ in: "body" as const, path: i.path.join("."), message: i.message }));
  if (isRecord(raw)) {
    const add = (path: string, message: string) => issues.push({ in: "body", path, message });
    for (const rule of rules) rule(raw, add);
  }
  if (issues.length) {
    const first = issues[0]!;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more: see details)` : "";
    throw badRequest(`${first.path ? `${first.path}: ` : ""}${first.message}${more}`, issues);
  }
  const data = (result as { data: T }).data;
  const ignored = unknownMembers(raw, data);
  if (ignored.length) log.info("deploy body: unknown members ignored", { members: ignored.slice(0, 20) });
  return data;
}

/** Sum of percents in basis points, or null when one of them is not a valid percent. */
export function sumBps(values: unknown[]): bigint | null {
  let sum = 0n;
  for (const v of values) {
    if (typeof v !== "number" || v < 0 || !Number.isFinite(v)) return null;
    const bps = percentToBps(v);
    if (bps === null) return null;
    sum += bps;
  }
  return sum;
}
