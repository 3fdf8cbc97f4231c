// npm run dev:token -- --fid 123: prints a development user token (embedded default only).
import { type CliSpec, runCommand, UsageError } from "./args";

const cli = {
  command: "npm run dev:token",
  synopsis: ["--fid <positive integer>"],
  description:
    "Prints a development user token for the Farcaster id (HS256, signed with a key kept in DATA_DIR; the service\n" +
    "accepts it with the embedded default only).",
  options: { fid: { type: "string", value: "fid", description: "the user's Farcaster id (required)" } },
} as const satisfies CliSpec;

await runCommand(cli, async ({ values }) => {
  const { issueDevToken } = await import("@/lib/http/auth/user-tokens");
  const fid = Number(values.fid);
  if (!Number.isSafeInteger(fid) || fid < 1) throw new UsageError(cli, "--fid must be a positive integer");
  console.log(await issueDevToken(fid));
});
