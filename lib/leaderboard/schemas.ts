// Query of GET /api/droid/leaderboard.
import { z } from "zod";
import { zInt } from "../http/params";
import { INTERVALS } from "./scoring";

export const leaderboardQuery = z.object({
  interval: z.enum(INTERVALS, { message: "must be 24h, 7d or 30d" }).optional(),
  limit: zInt(1, 100).default(25),
  cursor: z.string().max(200, "cursor: malformed").optional(),
});
