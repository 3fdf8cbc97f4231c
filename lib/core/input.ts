// Zod building blocks shared by every route's query, path and body schemas.
import { z, type ZodType } from "zod";
import { BYTES32, DEFAULT_CHAIN_ID, EVM_ADDRESS } from "./evm";
import { badRequest } from "./errors";

/**
 * How the OpenAPI document shows a query helper: query values travel as text, so their zod input side is a
 * string, but a client should send (and a generated client type) a number or a boolean. The document builder
 * (app/_openapi/document.ts) writes these for parameters, and `integerOrText` members of a JSON body as a
 * number or its decimal text; validation stays the zod schema's.
 */
export type DocumentedScalar =
  | { type: "integer"; minimum: number; maximum: number; integerOrText?: boolean; example?: number }
  | { type: "number"; minimum: number; maximum: number }
  | { type: "boolean" }
  | { type: "string"; enum: readonly string[] };

/** The helpers' own schemas, each with how the document shows it (see DocumentedScalar). */
export const documentedScalars = z.registry<DocumentedScalar>();

type Lineage = { _zod: { parent?: Lineage } };

/** The documented scalar of a schema made by a helper here, or of a copy of one (`.describe()` copies a schema). */
export function documentedScalarOf(schema: ZodType): DocumentedScalar | undefined {
  for (let s: Lineage | undefined = schema as unknown as Lineage; s; s = s._zod.parent) {
    const found = documentedScalars.get(s as unknown as ZodType);
    if (found) return found;
  }
  return undefined;
}

const documented = <T extends ZodType>(schema: T, scalar: DocumentedScalar): T => {
  documentedScalars.add(schema, scalar);
  return schema;
};

/** `0x` + 40 hex, any case; parsed to lowercase (how addresses are stored and compared). */
export const zAddress = z
  .string()
  .trim()
  .regex(EVM_ADDRESS, "must be an address: 0x followed by 40 hex digits")
  .transform((v) => v.toLowerCase() as `0x${string}`);

export const zBytes32 = z
  .string()
  .trim()
  .regex(BYTES32, "must be 0x followed by 64 hex digits")
  .transform((v) => v.toLowerCase() as `0x${string}`);

export const zTxHash = zBytes32;

/** Booleans in a query string: true/false/1/0, any case (`TRUE` and `True` are what other clients send). */
export const zBool = documented(
  z
    .preprocess(
      (v) => (typeof v === "string" ? v.trim().toLowerCase() : v),
      z.enum(["true", "false", "1", "0"], { message: "must be true, false, 1 or 0" }),
    )
    .transform((v) => v === "true" || v === "1"),
  { type: "boolean" },
);

/**
 * The number of a decimal text that passed its pattern. A text too long for a double becomes the largest one, so that
 * it compares as out of range ("must be at most") where zod's number would refuse Infinity with a bare message.
 */
const finiteNumber = (text: string) => Math.max(-Number.MAX_VALUE, Math.min(Number.MAX_VALUE, Number(text)));

/** A whole number written in decimal, within bounds (query strings carry only text). */
export const zInt = (min: number, max: number, example?: number) =>
  documented(
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, "must be a whole number")
      .transform(finiteNumber)
      .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`)),
    { type: "integer", minimum: min, maximum: max, example },
  );

/** The last second of the year 9999: the latest time a client may name. */
const MAX_UNIX_SECONDS = 253_402_300_799;

/** A time in unix seconds, whole or with a fraction (`1732770000.123`, as `Date.now() / 1000` writes it). */
export const zUnixSeconds = documented(
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, "must be unix seconds: a non-negative number, whole or with a fraction")
    .transform(finiteNumber)
    .pipe(z.number().max(MAX_UNIX_SECONDS, `must be at most ${MAX_UNIX_SECONDS}`)),
  { type: "number", minimum: 0, maximum: MAX_UNIX_SECONDS },
);

/**
 * A whole number in a JSON body or a query string: a JSON number is read as its decimal text, so that both forms
 * get zInt's messages ("must be a whole number", "must be at least 1").
 */
export const zIntLike = (min: number, max: number, example?: number) =>
  documented(
    z.preprocess((v) => (typeof v === "number" ? String(v) : v), zInt(min, max)),
    { type: "integer", minimum: min, maximum: max, integerOrText: true, example },
  );

/**
 * A page size. Above `max` it is clamped to `max`, as the platform does (a client asking for more gets a full
 * page, not an error); below `min` or not a number it is refused. The document states `maximum` (what a client
 * should send) and the clamping in the description.
 */
export const zLimit = (max: number, fallback: number, min = 1) =>
  documented(
    z
      .string()
      .trim()
      .regex(/^-?\d+$/, "must be a whole number")
      .transform(finiteNumber)
      .pipe(
        z
          .number()
          .min(min, `must be at least ${min}`)
          .transform((n) => Math.min(n, max)),
      ),
    { type: "integer", minimum: min, maximum: max },
  )
    .default(fallback)
    .describe(`page size, ${min} to ${max} (default ${fallback}); a larger value is clamped to ${max}`);

/** A Farcaster ID. */
export const zFid = zInt(1, Number.MAX_SAFE_INTEGER, 3);
/** An EVM chain id (8453 is Base, the default where one is optional). */
export const zChainId = zInt(1, 2 ** 31 - 1, DEFAULT_CHAIN_ID);

/**
 * A comma-separated list in a query string: items of the pattern `item` (a regex source), each may carry spaces around
 * it (`1, 2`) and the last may be followed by a comma (`1,2,`, as a loop that appends one after each writes it), read
 * by `read`, deduplicated, at most `max` of them (`noun` names them in messages). The key given more than once
 * (`fids=1&fids=2`) is one list of all its values (presentQueryValues joins them).
 */
export function zList<T>(item: string, noun: string, max: number, read: (text: string) => T) {
  const schema = z
    .string()
    .trim()
    .regex(new RegExp(`^${item}(\\s*,\\s*${item})*(\\s*,)?$`), `must be comma-separated ${noun}`)
    .transform((v) => [
      ...new Set(
        v
          .replace(/\s*,$/, "")
          .split(",")
          .map((text) => read(text.trim())),
      ),
    ])
    .refine((list) => list.length <= max, `at most ${max} ${noun}`);
  LISTS.add(schema);
  return schema;
}

/** Comma-separated FIDs (zList), at most `max`. */
export const zFidList = (max: number) =>
  zList("\\d{1,16}", "FIDs", max, Number).refine(
    (list) => list.every((n) => n >= 1 && Number.isSafeInteger(n)),
    "FIDs must be positive integers",
  );

/** An amount of wei: a non-negative integer in decimal, at most 78 digits (uint256). */
export const zWei = z
  .union([z.string(), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,78}$/.test(v) && BigInt(v) < 2n ** 256n, "must be a non-negative integer amount of wei")
  .transform((v) => BigInt(v).toString());

/**
 * One of a few lowercase words in a query string, in any case (`DESC`, `24H`, `Farcaster`), as booleans are: what
 * other clients send. The document shows the words (a string enum).
 */
export const zWord = <const T extends readonly [string, ...string[]]>(words: T, message: string) =>
  documented(
    z.preprocess((v) => (typeof v === "string" ? v.trim().toLowerCase() : v), z.enum(words, { message })),
    { type: "string", enum: words },
  );

export const zSort = zWord(["asc", "desc"], "must be asc or desc");

/** Schemas made by zText: the query layer passes their words through as given. */
const FREE_TEXT = new WeakSet<object>();
/** Schemas made by zList: the query layer joins a repeated key's values with commas. */
const LISTS = new WeakSet<object>();

/** Free text of a query string: bounded, and without NUL (Postgres text cannot hold it). */
export const zText = (max: number) => {
  const schema = z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((v) => !v.includes("\u0000"), "must not contain NUL characters");
  FREE_TEXT.add(schema);
  return schema;
};

type Wrapped = { _zod: { def: { innerType?: Wrapped; in?: Wrapped }; parent?: Wrapped } };

/** Whether the schema, under its optional/default/pipe wrappers and `.describe()` copies, is one of `made`. */
function isMade(schema: Wrapped, made: WeakSet<object>): boolean {
  if (made.has(schema)) return true;
  const { def, parent } = schema._zod;
  return [def.innerType, def.in, parent].some((s) => s !== undefined && isMade(s, made));
}

/** What clients write for "no value" when they interpolate a missing variable (`?cursor=${c}`). */
const NO_VALUE_WORDS = new Set(["undefined", "null"]);

type QueryKeyRule = { words: boolean; list: boolean };
const queryRules = new WeakMap<object, Map<string, QueryKeyRule>>();

function rulesOf(schema: ZodType): Map<string, QueryKeyRule> {
  let rules = queryRules.get(schema);
  if (!rules) {
    rules = new Map();
    const shape = (schema as { shape?: Record<string, ZodType> }).shape ?? {};
    for (const [key, field] of Object.entries(shape)) {
      // A required parameter keeps the words: `name=null` may be a real username, and a missing one is a 400 anyway.
      const wrapped = field as unknown as Wrapped;
      rules.set(key, {
        words: !isMade(wrapped, FREE_TEXT) && field.safeParse(undefined).success,
        list: isMade(wrapped, LISTS),
      });
    }
    queryRules.set(schema, rules);
  }
  return rules;
}

/**
 * The query as the route's schema should see it: a blank value of a parameter the schema knows is absent, and so
 * are `undefined` and `null` for an optional parameter that is not free text (the platform reads them so, and
 * clients written against it send them). A list's key given more than once is one list of all its values; any other
 * key given more than once with the same value is that value (with two values, a 400). Keys the schema does not know
 * are left for it to judge.
 */
export function presentQueryValues(
  schema: ZodType,
  raw: Record<string, string | string[]>,
): Record<string, string | string[]> {
  const rules = rulesOf(schema);
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(raw)) {
    const rule = rules.get(key);
    if (!rule) {
      out[key] = value;
      continue;
    }
    const kept = (Array.isArray(value) ? value : [value]).filter((v) => {
      const t = v.trim();
      return t !== "" && !(rule.words && NO_VALUE_WORDS.has(t));
    });
    // A scalar given twice with one value (`chainId=8453&chainId=8453`, as merged defaults write it) is that value.
    const single = kept.length === 1 || (!rule.list && kept.every((v) => v.trim() === kept[0].trim()));
    if (kept.length) out[key] = single ? kept[0] : rule.list ? kept.join(",") : kept;
  }
  return out;
}

/** A value parsed by its schema, or a 400 naming the first issue (all of them in `details`). */
export function parseWith<T>(schema: ZodType<T>, value: unknown, where: "query" | "body" | "path"): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((i) => ({ in: where, path: i.path.join("."), message: i.message }));
  const first = details[0];
  throw badRequest(first.path ? `${first.path}: ${first.message}` : `${where}: ${first.message}`, details);
}
