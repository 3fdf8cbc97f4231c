// npm run dev:token -- --fid 123: prints a development user token (embedded default only).
import { issueDevToken } from "@/lib/http/auth/user-tokens";
import { parseArgs, runCommand } from "./args";

await runCommand(async () => {
  const { flags } = parseArgs();
  const fid = Number(flags.fid);
  if (!Number.isSafeInteger(fid) || fid < 1) throw new Error("usage: npm run dev:token -- --fid <positive integer>");
  console.log(await issueDevToken(fid));
});
