// npm run apikey -- create --name <partner> [--reward-address <0x…>] | reward <prefix> <0x…|none> | revoke <prefix> | list
import { type CliSpec, runCommand, UsageError } from "./args";

const cli = {
  command: "npm run apikey",
  synopsis: [
    "create --name <partner> [--reward-address <0x…>]",
    "reward <prefix> <0x…|none>",
    "revoke <prefix>",
    "list",
  ],
  description:
    "Manages partner API keys: create prints a new key once; reward sets the address that receives a key's\n" +
    "interface share (none: the platform); revoke ends a key; list shows every key.",
  options: {
    name: { type: "string", value: "partner", description: "create: the partner's name (required)" },
    "reward-address": { type: "string", value: "0x…", description: "create: the key's reward address" },
  },
  positionals: 3,
} as const satisfies CliSpec;

await runCommand(cli, async ({ positionals, values }) => {
  const [{ createApiKey, listApiKeys, revokeApiKey, setApiKeyRewardAddress }, { isEvmAddress }] = await Promise.all([
    import("@/lib/domains/partners/apikeys"),
    import("@/lib/core/evm"),
  ]);
  const [command, arg, third] = positionals;
  const only = (allowed: number, ...flags: (keyof typeof values)[]) => {
    if (positionals.length > allowed) throw new UsageError(cli, `unexpected argument ${positionals[allowed]}`);
    const stray = (Object.keys(values) as (keyof typeof values)[]).find((name) => !flags.includes(name));
    if (stray) throw new UsageError(cli, `--${stray} is an option of create only`);
  };
  if (command === "create") {
    only(1, "name", "reward-address");
    if (!values.name?.trim()) throw new UsageError(cli, "create needs --name <partner>");
    // Checked before the key exists: a key created and then refused its address would never be shown.
    if (values["reward-address"] !== undefined && !isEvmAddress(values["reward-address"]))
      throw new UsageError(cli, `--reward-address is not an address: ${values["reward-address"]}`);
    const { key, prefix } = await createApiKey(values.name.trim());
    // The interface share of legacy deploy shapes (0.3.x, 3.1.0) goes here; without it, to the platform.
    if (values["reward-address"] !== undefined) await setApiKeyRewardAddress(prefix, values["reward-address"]);
    console.log(`created key ${prefix}… for ${values.name}. It is shown once; store it now:\n${key}`);
  } else if (command === "reward" && arg && third) {
    only(3);
    const address = third === "none" ? null : third;
    if (!(await setApiKeyRewardAddress(arg, address))) throw new Error(`no active key with prefix ${arg}`);
    console.log(`reward address of ${arg}: ${address ?? "none (the platform receives the interface share)"}`);
  } else if (command === "revoke" && arg) {
    only(2);
    if (!(await revokeApiKey(arg))) throw new Error(`no active key with prefix ${arg}`);
    console.log(`revoked ${arg}`);
  } else if (command === "list") {
    only(1);
    for (const k of await listApiKeys()) {
      console.log(`${k.prefix}  ${k.name}  created ${k.created_at.toISOString()}${k.revoked_at ? "  REVOKED" : ""}`);
    }
  } else {
    throw new UsageError(cli, command ? `unknown or incomplete command: ${positionals.join(" ")}` : "no command given");
  }
});
