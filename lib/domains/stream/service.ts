// The token stream's service: record a newly indexed token (the one event behind the stream and the launch
// webhooks) and open a stream for a client, within its slots.
import { type Database, db } from "@/db";
import { config } from "@/lib/core/config";
import { badRequest } from "@/lib/core/errors";
import { openStream } from "./connection";
import { zStreamCursor } from "./events";
import { hub } from "./hub";
import { takeSlot, type StreamHolder } from "./limits";
import { insertTokenEvent, type Position, pruneEvents } from "@/lib/domains/tokens/service";
import type { StreamQuery } from "./schemas";

export { openStreamCount, type StreamHolder } from "./limits";
export type { Position } from "@/lib/domains/tokens/service";

/**
 * Records that a token was indexed, in the transaction that inserted it. Null when it was recorded before: the
 * same token indexed again is not a new event (and its webhooks are not sent again).
 */
export function recordTokenIndexed(
  db: Database,
  token: { id: number; chain_id: number; contract_address: string },
): Promise<Position | null> {
  return insertTokenEvent(db, {
    token_id: token.id,
    chain_id: token.chain_id,
    contract_address: token.contract_address,
  });
}

/**
 * Removes the events older than STREAM_RETENTION_HOURS and moves the pruned horizon past them (a cursor before it
 * gets the `gap` event); returns how many went. Idempotent, so any instance and the daily prune may run it.
 */
export function pruneTokenEvents(now = Date.now()): Promise<number> {
  return pruneEvents(db(), new Date(now - config().STREAM_RETENTION_HOURS * 3600 * 1000));
}

/**
 * Asks this instance's reader to look for new events now rather than at its next tick: for an indexer that just
 * committed tokens in this process, where the database sends no NOTIFY (Neon). Other instances hear the NOTIFY.
 */
export function nudgeTokenStream(): void {
  hub().wake();
}

/** The stream of a request: `Last-Event-ID` wins over `cursor` (a browser resends the URL it first opened). */
export function openTokenStream(query: StreamQuery, holder: StreamHolder, lastEventId: string | null) {
  let cursor = query.cursor;
  if (lastEventId !== null && lastEventId.trim() !== "") {
    const parsed = zStreamCursor.safeParse(lastEventId.trim());
    if (!parsed.success) throw badRequest("Last-Event-ID: is not an event id of this stream");
    cursor = parsed.data;
  }
  const release = takeSlot(holder);
  const fids = [...new Set([...(query.fid !== undefined ? [query.fid] : []), ...(query.fids ?? [])])];
  return openStream(
    {
      filters: {
        chainId: query.chainId,
        fids: fids.length ? fids : undefined,
        msgSender: query.msgSender,
        pair: query.pair,
        type: query.type,
      },
      shape: { includeUser: query.includeUser, includeMarket: query.includeMarket },
      cursor,
    },
    release,
  );
}
