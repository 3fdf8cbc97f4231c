// npm run apikey -- create --name <partner> [--reward-address <0x…>] | reward <prefix> <0x…|none> | revoke <prefix> | list
import { createApiKey, listApiKeys, revokeApiKey, setApiKeyRewardAddress } from "@/lib/domains/partners/apikeys";
import { parseArgs, runCommand } from "./args";

const usage =
  "usage: npm run apikey -- create --name <partner> [--reward-address <0x…>] | reward <prefix> <0x…|none> | revoke <prefix> | list";

await runCommand(async () => {
  const { positionals, flags } = parseArgs();
  const [command, arg] = positionals;
  if (command === "create") {
    if (typeof flags.name !== "string" || !flags.name.trim()) throw new Error(usage);
    const { key, prefix } = await createApiKey(flags.name.trim());
    // The interface share of legacy deploy shapes (0.3.x, 3.1.0) goes here; without it, to the platform.
    if (typeof flags["reward-address"] === "string") await setApiKeyRewardAddress(prefix, flags["reward-address"]);
    console.log(`created key ${prefix}… for ${flags.name}. It is shown once; store it now:\n${key}`);
  } else if (command === "reward" && arg && positionals[2]) {
    const address = positionals[2] === "none" ? null : positionals[2];
    if (!(await setApiKeyRewardAddress(arg, address))) throw new Error(`no active key with prefix ${arg}`);
    console.log(`reward address of ${arg}: ${address ?? "none (the platform receives the interface share)"}`);
  } else if (command === "revoke" && arg) {
    if (!(await revokeApiKey(arg))) throw new Error(`no active key with prefix ${arg}`);
    console.log(`revoked ${arg}`);
  } else if (command === "list") {
    for (const k of await listApiKeys()) {
      console.log(`${k.prefix}  ${k.name}  created ${k.created_at.toISOString()}${k.revoked_at ? "  REVOKED" : ""}`);
    }
  } else {
    throw new Error(usage);
  }
});
