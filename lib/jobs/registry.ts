// Every job definition, imported once so that the worker and /api/jobs/[job] know them all.
// Each domain adds one line: import "../<domain>/jobs";
export {};
import "./retention";
import "../leaderboard/jobs";
import "../market/jobs";
import "../earnings/jobs";
import "../presales/jobs";
import "../deploy/jobs";
import "../webhooks/jobs";
