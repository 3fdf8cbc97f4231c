// The figures tests/reliability/measure/deploy-webhooks.measure.ts writes to RELIABILITY_OUT/webhooks.json and
// tests/reliability/run.ts reads back. In a module of its own: a test file exports nothing (importing one would run
// its tests again).
export type WebhookLatency = {
  at: string;
  deploys: number;
  subscriptions: number;
  /** ms from the request to `deployed`; null: not deployed within DEPLOY_TIMEOUT_MS. */
  usualMs: (number | null)[];
  loadedMs: (number | null)[];
  usualMedianMs: number | null;
  loadedMedianMs: number | null;
  ratio: number | null;
  boundMs: number | null;
  /** Delivery attempts the black holes had received (all still hanging) before and after the loaded deploys. */
  hangingBefore: number;
  hangingAfter: number;
  passed: boolean;
  failures: string[];
};
