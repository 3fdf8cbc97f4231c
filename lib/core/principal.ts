// Who is calling, as route() hands it to a handler: the types every wing may name (lib/http/auth builds them).

/** A verified user token's subject: Farcaster Quick Auth, Privy, or (embedded default only) the dev issuer. */
export type UserIdentity = { userId: string; fid: number | null; issuer: "farcaster" | "privy" | "dev" };

export type PublicPrincipal = { kind: "public" };
export type PartnerPrincipal = { kind: "partner"; partnerId: number; name: string };
export type UserPrincipal = { kind: "user" } & UserIdentity;
export type AdminPrincipal = { kind: "admin"; via: "cookie" | "header" };
/** Vercel's cron, by the CRON_SECRET bearer. */
export type CronPrincipal = { kind: "cron" };
/** QStash delivering a job: the body its signature covers (the route reads no other). */
export type QstashPrincipal = { kind: "qstash"; signedBody: string };
export type Principal =
  | PublicPrincipal
  | PartnerPrincipal
  | UserPrincipal
  | AdminPrincipal
  | CronPrincipal
  | QstashPrincipal;
