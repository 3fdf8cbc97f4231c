"use client";
// Newly indexed tokens from GET /api/tokens/stream, through the browser's EventSource: it reconnects by itself
// with Last-Event-ID, so a dropped or ended stream resumes where it was and loses nothing.
import { useEffect, useRef, useState } from "react";

export type StreamState = "connecting" | "live" | "reconnecting" | "off";
/** A frame other than a token: ready, gap (with the list page to read) or end. */
export type StreamNotice = { event: "ready" | "gap" | "end"; data: Record<string, unknown>; at: Date };

/** Opens the stream at `path` (null: none) and hands each token object to `onToken`. */
export function useTokenStream<T>(
  path: string | null,
  onToken: (token: T, id: string) => void,
  onNotice?: (notice: StreamNotice) => void,
): StreamState {
  const [state, setState] = useState<StreamState>(path ? "connecting" : "off");
  const handlers = useRef({ onToken, onNotice });
  handlers.current = { onToken, onNotice };
  useEffect(() => {
    if (!path || typeof EventSource === "undefined") {
      setState("off");
      return;
    }
    setState("connecting");
    const source = new EventSource(path);
    source.onopen = () => setState("live");
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? "off" : "reconnecting");
    source.addEventListener("token", (e) =>
      handlers.current.onToken(JSON.parse((e as MessageEvent).data), (e as MessageEvent).lastEventId),
    );
    for (const event of ["ready", "gap", "end"] as const)
      source.addEventListener(event, (e) =>
        handlers.current.onNotice?.({ event, data: JSON.parse((e as MessageEvent).data), at: new Date() }),
      );
    return () => source.close();
  }, [path]);
  return state;
}
