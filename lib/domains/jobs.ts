import "@/lib/platform/jobs/retention";
import "./leaderboard/jobs";
import "./tokens/market/jobs";
import "./rewards/earnings/jobs";
import "./presales/jobs";
import "./launch/deploy/jobs";
import "./webhooks/jobs";
import "./airdrops/jobs";
