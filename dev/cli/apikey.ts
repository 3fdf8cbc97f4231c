// npm run apikey -- create --name <partner> [options] | rotate <prefix> [--grace <s>] | revoke <prefix> | list | …
import { type CliArgs, type CliSpec, runCommand, UsageError } from "./args";

const cli = {
  command: "npm run apikey",
  synopsis: [
    "create --name <partner> [--owner <who>] [--scopes <list>] [--expires <ISO time>] [--requests-per-minute <N>] [--deploys-per-day <N>] [--reward-address <0x…>] [--no-pepper]",
    "rotate <prefix> [--grace <seconds>] [--no-pepper]",
    "reward <prefix> <0x…|none>",
    "revoke <prefix>",
    "usage <prefix> [--days <N>]",
    "list",
  ],
  description:
    "Manages partner API keys in the service's database (the admin API, /api/admin/keys, does the same):\n" +
    "create prints a new key once; rotate prints a new key for the same partner while the old one works for\n" +
    "the grace period; reward sets the address that receives a key's interface share (none: the platform);\n" +
    "revoke ends a key at once; usage prints its requests and deployments per day; list shows every key.\n" +
    "A key is hashed with API_KEY_PEPPER: create and rotate on a database of another machine refuse to run\n" +
    "without it, since the deployment's pepper is unknown; --no-pepper says that deployment runs without one.",
  options: {
    name: { type: "string", value: "partner", description: "create: the partner's name (required)" },
    owner: { type: "string", value: "who", description: "create: who to contact about the key" },
    scopes: {
      type: "string",
      value: "list",
      description: "create: comma-separated, of read, deploy, index, webhooks (default: all)",
    },
    expires: { type: "string", value: "ISO time", description: "create: when the key stops working (default: never)" },
    "requests-per-minute": { type: "string", value: "N", description: "create: the key's own request limit a minute" },
    "deploys-per-day": { type: "string", value: "N", description: "create: the key's own deployments a UTC day" },
    "reward-address": { type: "string", value: "0x…", description: "create: the key's reward address" },
    grace: { type: "string", value: "seconds", description: "rotate: how long the old key works (default 86400)" },
    days: { type: "string", value: "N", description: "usage: how many UTC days back (default 7, at most 31)" },
    "no-pepper": {
      type: "boolean",
      description: "create, rotate: the deployment runs without API_KEY_PEPPER (needed for another machine's database)",
    },
  },
  positionals: 3,
} as const satisfies CliSpec;

type Values = CliArgs<typeof cli>["values"];

/** A whole number option within bounds, or a usage error naming it. */
function wholeNumber(values: Values, name: keyof Values, min: number, max: number): number | undefined {
  const text = values[name] as string | undefined;
  if (text === undefined) return undefined;
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= min && n <= max)) throw new UsageError(cli, `--${name} must be a whole number from ${min} to ${max}`);
  return n;
}

/** Hosts of this machine: a database there is a local one, whose service reads the same environment. */
function isLocalDatabase(url: string): boolean {
  const parsed = URL.parse(url);
  if (!parsed) return false;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  // An empty host or a `host=/path` parameter is a Unix socket.
  if (host === "" || parsed.searchParams.get("host")?.startsWith("/")) return true;
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * A key is stored as SHA-256(API_KEY_PEPPER + key), and the deployment checks it with its own pepper. On another
 * machine's database (production's, reached with its DATABASE_URL) an unset pepper is most likely a forgotten one,
 * and the key it makes would be refused there: refused here unless --no-pepper says the deployment has none.
 */
function checkPepper(values: Values): void {
  const pepper = process.env.API_KEY_PEPPER ?? "";
  if (values["no-pepper"] && pepper !== "")
    throw new UsageError(cli, "--no-pepper contradicts API_KEY_PEPPER, which is set: leave out one of them");
  const url = process.env.DATABASE_URL;
  if (!url || isLocalDatabase(url) || pepper !== "" || values["no-pepper"]) return;
  const host = URL.parse(url)?.hostname || "another machine";
  throw new Error(
    `refused: DATABASE_URL is on ${host} and API_KEY_PEPPER is unset: the key would not match the deployment's pepper.\n` +
      "Set API_KEY_PEPPER to the deployment's value (Vercel: the project's Environment Variables), or pass\n" +
      "--no-pepper if the deployment has none.",
  );
}

await runCommand(cli, async ({ positionals, values }) => {
  const [partners, usage, { isEvmAddress }] = await Promise.all([
    import("@/lib/domains/partners/apikeys"),
    import("@/lib/domains/partners/usage"),
    import("@/lib/core/evm"),
  ]);
  const [command, arg, third] = positionals;
  const only = (allowed: number, ...flags: (keyof Values)[]) => {
    if (positionals.length > allowed) throw new UsageError(cli, `unexpected argument ${positionals[allowed]}`);
    const stray = (Object.keys(values) as (keyof Values)[]).find((name) => !flags.includes(name));
    if (stray) throw new UsageError(cli, `--${stray} is not an option of ${command}`);
  };
  const idOf = async (prefix: string) => {
    const id = await partners.findApiKeyIdByPrefix(prefix);
    if (id === undefined) throw new Error(`no active key with prefix ${prefix}`);
    return id;
  };
  if (command === "create") {
    only(
      1,
      "name",
      "owner",
      "scopes",
      "expires",
      "requests-per-minute",
      "deploys-per-day",
      "reward-address",
      "no-pepper",
    );
    if (!values.name?.trim()) throw new UsageError(cli, "create needs --name <partner>");
    checkPepper(values);
    // Checked before the key exists: a key created and then refused a setting would never be shown.
    if (values["reward-address"] !== undefined && !isEvmAddress(values["reward-address"]))
      throw new UsageError(cli, `--reward-address is not an address: ${values["reward-address"]}`);
    const scopes = values.scopes?.split(",").map((s) => s.trim());
    const unknown = scopes?.find((s) => !(partners.API_KEY_SCOPES as readonly string[]).includes(s));
    if (unknown !== undefined || scopes?.length === 0)
      throw new UsageError(cli, `--scopes takes ${partners.API_KEY_SCOPES.join(", ")}; not ${unknown}`);
    const expiresAt = values.expires === undefined ? null : new Date(values.expires);
    if (expiresAt && !(expiresAt.getTime() > Date.now()))
      throw new UsageError(cli, `--expires must be a time in the future: ${values.expires}`);
    const { key, prefix } = await partners.createApiKey(values.name.trim(), {
      owner: values.owner?.trim() || null,
      scopes: scopes as (typeof partners.API_KEY_SCOPES)[number][] | undefined,
      expiresAt,
      requestsPerMinute: wholeNumber(values, "requests-per-minute", 1, 1_000_000) ?? null,
      deploysPerDay: wholeNumber(values, "deploys-per-day", 1, 10_000_000) ?? null,
      // The interface share of legacy deploy shapes (0.3.x, 3.1.0) goes here; without it, to the platform.
      rewardAddress: values["reward-address"] ?? null,
    });
    console.log(`created key ${prefix}… for ${values.name}. It is shown once; store it now:\n${key}`);
  } else if (command === "rotate" && arg) {
    only(2, "grace", "no-pepper");
    checkPepper(values);
    const grace = wholeNumber(values, "grace", 0, partners.MAX_ROTATION_GRACE_SECONDS);
    const rotated = await partners.rotateApiKey(await idOf(arg), grace);
    if (!rotated) throw new Error(`no active key with prefix ${arg}`);
    const until = rotated.row.previous_expires_at!.toISOString();
    console.log(`rotated ${arg}: it works until ${until}. The new key is shown once; store it now:\n${rotated.key}`);
  } else if (command === "reward" && arg && third) {
    only(3);
    const address = third === "none" ? null : third;
    if (!(await partners.setApiKeyRewardAddress(arg, address))) throw new Error(`no active key with prefix ${arg}`);
    console.log(`reward address of ${arg}: ${address ?? "none (the platform receives the interface share)"}`);
  } else if (command === "revoke" && arg) {
    only(2);
    if (!(await partners.revokeApiKey(arg))) throw new Error(`no active key with prefix ${arg}`);
    console.log(`revoked ${arg}`);
  } else if (command === "usage" && arg) {
    only(2, "days");
    const days = await usage.readKeyUsage(await idOf(arg), wholeNumber(values, "days", 1, usage.MAX_USAGE_DAYS));
    for (const day of days) {
      console.log(`${day.day}  ${day.requests} requests  ${day.deploys} deploys`);
      for (const r of day.byRoute) console.log(`  ${r.count}  ${r.route}  ${r.status}`);
    }
  } else if (command === "list") {
    only(1);
    for (const k of await partners.listApiKeys()) {
      const state = k.revoked_at ? "  REVOKED" : k.expires_at && k.expires_at <= new Date() ? "  EXPIRED" : "";
      const limits = [
        k.expires_at && `expires ${k.expires_at.toISOString()}`,
        k.requests_per_minute && `${k.requests_per_minute}/min`,
        k.deploys_per_day && `${k.deploys_per_day} deploys/day`,
      ].filter(Boolean);
      console.log(
        `${k.prefix}  ${k.name}${k.owner ? ` (${k.owner})` : ""}  [${k.scopes.join(",")}]  created ${k.created_at.toISOString()}` +
          `${limits.length ? `  ${limits.join("  ")}` : ""}${state}`,
      );
    }
  } else {
    throw new UsageError(cli, command ? `unknown or incomplete command: ${positionals.join(" ")}` : "no command given");
  }
});
