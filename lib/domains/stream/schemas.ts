// The query of GET /api/tokens/stream and the shapes of its events, for validation and the OpenAPI document.
import { z } from "zod";
import { zAddress, zBool, zChainId, zFid, zFidList } from "@/lib/core/input";
import { zStreamCursor } from "./events";

export const MAX_STREAM_FIDS = 100;

export const streamQuery = z.object({
  chainId: zChainId.optional().describe("only tokens of this chain"),
  fid: zFid.optional().describe("only tokens requested by this FID (with fids: either)"),
  fids: zFidList(MAX_STREAM_FIDS)
    .optional()
    .describe(`comma-separated FIDs of the tokens' requestors, at most ${MAX_STREAM_FIDS}`),
  msgSender: zAddress.optional().describe("only tokens whose deploying transaction this address sent"),
  pair: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._-]{1,32}$/, "must be a token symbol (letters, digits, . _ -; at most 32)")
    .transform((v) => v.toLowerCase())
    .optional()
    .describe("only tokens paired with this quote token symbol (e.g. WETH), any case"),
  type: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]{1,32}$/, "must be a token type such as clanker_v4")
    .optional()
    .describe("only tokens of this type (the token object's `type`, e.g. clanker_v4)"),
  includeUser: zBool.default(false).describe("add each token's creator profile"),
  includeMarket: zBool.default(false).describe("add each token's stored market data"),
  cursor: zStreamCursor
    .optional()
    .describe("resume after this event id (as `Last-Event-ID`, which wins when both are sent)"),
});

export type StreamQuery = z.infer<typeof streamQuery>;

/** What the document shows as the answer: the event stream, one frame per line group. */
export const streamEventsSchema = z
  .string()
  .describe(
    "text/event-stream. `event: token` (id: cursor; data: the token object of GET /api/tokens), " +
      "`event: ready` (first frame of a new stream: data { cursor }), `event: gap` (data { reason, list, cursor }: " +
      "the cursor is older than the kept events; page `list` and go on), `event: end` (data { reason, cursor }: " +
      "the stream closes; reconnect with Last-Event-ID), and `: keepalive` comments with the current id.",
  );
