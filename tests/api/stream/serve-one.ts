// One server process with one open stream, for tests/api/stream/restart.test.ts: GET /api/tokens/stream with the
// key and Last-Event-ID given, its bytes written to stdout until the process is killed.
import { GET } from "@/app/api/tokens/stream/route";

const [key, lastEventId] = process.argv.slice(2);
const headers: Record<string, string> = { "x-api-key": key };
if (lastEventId) headers["last-event-id"] = lastEventId;
const request = new Request("http://localhost:3000/api/tokens/stream", { headers });
const response = await GET(request as Parameters<typeof GET>[0], { params: Promise.resolve({}) });
if (response.status !== 200) {
  process.stderr.write(`stream answered ${response.status}: ${await response.text()}\n`);
  process.exit(1);
}
for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) process.stdout.write(chunk);
