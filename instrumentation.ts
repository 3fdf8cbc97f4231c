// Next's server start hook: in the Node.js runtime only, serve the embedded database and start the job worker.
// Nothing happens at import: `next build` imports this file too.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServerProcess } = await import("./lib/http/startup");
  await startServerProcess();
}
