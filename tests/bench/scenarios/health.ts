// GET /api/health: the database round trip of the liveness report (one `SELECT 1`).
import { defineScenario } from "./types";

export default defineScenario({
  name: "health",
  description: "GET /api/health (one SELECT 1 through the pool)",
  requests: () => [{ path: "/api/health" }],
  sql: () => [[[{ text: "SELECT 1" }]]],
});
