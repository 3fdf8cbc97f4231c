// Trees and raw uploads for the airdrop and allowlist tests.
import { buildStandardTree, type StandardDump } from "@/lib/merkle/build";

/** A deterministic address per index, in mixed case (clients send any case). */
export function address(i: number): string {
  const hex = (BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(40, "0").slice(-40);
  return `0x${[...hex].map((c, k) => (k % 3 === 0 ? c.toUpperCase() : c)).join("")}`;
}

export function makeTree(count: number, amount = (i: number) => BigInt(i + 1) * 10n ** 17n) {
  const values = Array.from({ length: count }, (_, i) => [address(i), amount(i)] as const);
  return buildStandardTree(values);
}

export type Tree = { root: `0x${string}`; dump: StandardDump };

/** A deep copy of a dump to tamper with. */
export const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value));

type Handler = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/**
 * POSTs raw bytes the way SDKs and scripts do: no content-type unless given (fetch with a string body
 * sends text/plain), optionally split into many small chunks.
 */
export async function postRaw(handler: Handler, path: string, body: string | Uint8Array, options: { headers?: Record<string, string>; chunk?: number; ip?: string } = {}) {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const chunk = options.chunk ?? 65_536;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += chunk) controller.enqueue(bytes.subarray(at, at + chunk));
      controller.close();
    },
  });
  const request = new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers: { "x-forwarded-for": options.ip ?? "203.0.113.7", ...options.headers },
    body: stream,
    duplex: "half",
  } as RequestInit);
  const response = await handler(request, { params: Promise.resolve({}) });
  const text = await response.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, headers: response.headers, body: json, text };
}
