// Every job definition, imported once so that the worker and /api/jobs/[job] know them all.
// Each domain adds one line: import "./<domain>/jobs";
export {};
import "@/lib/platform/jobs/retention";
import "./leaderboard/jobs";
import "./tokens/market/jobs";
import "./rewards/earnings/jobs";
import "./presales/jobs";
import "./launch/deploy/jobs";
import "./webhooks/jobs";
