"use client";
// Chain names from GET /api/metadata/chains (the served chains, named from viem's chain list on the server, so the
// pages carry no chain list of their own), fetched once per page and per set of other ids.
import { useEffect, useState } from "react";
import { getJson } from "./api";

export type ChainInfo = { chainId: number; name: string; testnet: boolean; served: boolean };

/** The served chains, plus names for `ids` (the chains of the rows on screen). */
export function useChains(ids: number[] = []): ChainInfo[] {
  const key = [...new Set(ids)].sort((a, b) => a - b).join(",");
  const [chains, setChains] = useState<ChainInfo[]>([]);
  useEffect(() => {
    const ctrl = new AbortController();
    getJson<{ chains: ChainInfo[] }>(`/api/metadata/chains${key ? `?ids=${key}` : ""}`, ctrl.signal).then(
      (body) => setChains(body.chains),
      () => {},
    );
    return () => ctrl.abort();
  }, [key]);
  return chains;
}

export const chainLabel = (chains: ChainInfo[], chainId: number) =>
  chains.find((c) => c.chainId === chainId)?.name ?? `Chain ${chainId}`;
