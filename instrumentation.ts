// Next's server start hook: in the Node.js runtime only, check the configuration, start telemetry (when wanted:
// lib/core/telemetry-start.ts), serve the embedded database (when it is the database) and start the job worker.
// Nothing happens at import: `next build` imports this file too.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { prepareServerProcess, startJobWorker } = await import("./lib/http/startup");
  prepareServerProcess();
  const { startTelemetry } = await import("./lib/core/telemetry-start");
  await startTelemetry();
  const { startEmbeddedServer } = await import("./db/embedded-server");
  await startEmbeddedServer();
  startJobWorker();
}
