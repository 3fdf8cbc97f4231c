// One delivery attempt of a signed webhook: POST the JSON body to the subscriber with
// x-webhook-signature = v1=<hex HMAC-SHA256(secret, `${timestamp}.${body}`)>, through the SSRF-safe lookup.
import { createHmac } from "node:crypto";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { config } from "@/lib/core/config";
import { assertSafeTarget, safeLookup } from "./ssrf";

export function signature(secret: string, timestamp: string, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

export type AttemptResult = { ok: boolean; responseCode: number | null; error: string | null };

const MAX_ANSWER_BYTES = 64 * 1024; // the answer is read (to free the socket) and dropped

/** Never throws: a refused target, a timeout or a non-2xx answer is a failed attempt with its reason. */
export async function postSigned(
  rawUrl: string,
  secret: string,
  deliveryId: string,
  body: string,
): Promise<AttemptResult> {
  let url: URL;
  try {
    url = await assertSafeTarget(rawUrl);
  } catch (error) {
    return { ok: false, responseCode: null, error: (error as Error).message };
  }
  const timestamp = String(Math.floor(Date.now() / 1000));
  const headers = {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    "user-agent": "token-launch-webhooks/1",
    "x-webhook-id": deliveryId,
    "x-webhook-timestamp": timestamp,
    "x-webhook-signature": signature(secret, timestamp, body),
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const { WEBHOOK_TIMEOUT_MS: timeoutMs, WEBHOOK_CONNECT_TIMEOUT_MS: connectMs } = config();
  return new Promise((resolve) => {
    const req = send(
      url,
      { method: "POST", headers, lookup: safeLookup, signal: AbortSignal.timeout(timeoutMs) },
      (res) => {
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) res.destroy();
        });
        const done = () => {
          const code = res.statusCode ?? 0;
          const ok = code >= 200 && code < 300;
          resolve({ ok, responseCode: code, error: ok ? null : `answered ${code}` });
        };
        res.on("end", done);
        res.on("close", done); // resolve is idempotent: the first of end/close wins
        res.on("error", done);
      },
    );
    // A host that drops packets leaves the socket connecting until the OS gives up (minutes): end it sooner.
    req.on("socket", (socket) => {
      if (!socket.connecting) return; // a kept-alive socket, connected already
      const timer = setTimeout(() => req.destroy(new Error(`could not connect within ${connectMs} ms`)), connectMs);
      timer.unref?.();
      const stop = () => clearTimeout(timer);
      socket.once("connect", stop);
      socket.once("close", stop);
    });
    req.on("error", (error: Error) =>
      resolve({
        ok: false,
        responseCode: null,
        error:
          error.name === "AbortError" || error.name === "TimeoutError"
            ? `no answer within ${timeoutMs} ms`
            : error.message,
      }),
    );
    req.end(body);
  });
}
