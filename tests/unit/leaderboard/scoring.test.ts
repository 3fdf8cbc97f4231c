// The score: components, wash signals and the composite, as docs/market-and-leaderboard.md "Scoring" writes them down.
import { describe, expect, it } from "vitest";
import { components, scoreAgent, washSignals, WEIGHTS, type AgentStats } from "@/lib/domains/leaderboard/scoring";

const quiet: AgentStats = {
  runsTotal: 0,
  runsSucceeded: 0,
  posts: 0,
  replies: 0,
  quotes: 0,
  casts: 0,
  interactions: 0,
  selfInteractions: 0,
  topThreeInteractions: 0,
  distinctCounterparts: 0,
  creatorNeynarScore: 0,
};
const healthy: AgentStats = {
  runsTotal: 10,
  runsSucceeded: 9,
  posts: 6,
  replies: 4,
  quotes: 2,
  casts: 12,
  interactions: 50,
  selfInteractions: 0,
  topThreeInteractions: 9,
  distinctCounterparts: 30,
  creatorNeynarScore: 0.9,
};

describe("components", () => {
  it("computes each component as documented", () => {
    const c = components(healthy, "24h");
    expect(c.reliability).toBeCloseTo(10 / 12, 4); // (9 + 1) / (10 + 2)
    expect(c.activity).toBeCloseTo(10 / 15, 4); // 10 / (10 + 5·1)
    expect(c.output).toBeCloseTo(9.5 / 19.5, 4); // (6 + 0.75·2 + 0.5·4) / (… + 10·1)
    expect(c.engagement).toBeCloseTo(50 / 75, 4); // 50 / (50 + 25·1)
    expect(c.creator).toBe(0.9);
    expect(Object.values(WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });

  it("scales the saturation points with the interval's length", () => {
    expect(components(healthy, "7d").activity).toBeCloseTo(10 / 45, 4);
    expect(components(healthy, "30d").engagement).toBeCloseTo(50 / 800, 4);
  });

  it("gives an agent with nothing a neutral reliability and zeros elsewhere", () => {
    expect(components(quiet, "7d")).toEqual({ reliability: 0.5, activity: 0, output: 0, engagement: 0, creator: 0 });
  });

  it("does not count self-interactions as engagement", () => {
    expect(components({ ...healthy, selfInteractions: 50 }, "24h").engagement).toBe(0);
  });
});

describe("wash detection", () => {
  it("flags nothing for organic activity", () => {
    const score = scoreAgent(healthy, "24h");
    expect(score.washFlags).toEqual([]);
    expect(score.washConfidence).toBe(0);
  });

  it("flags interactions concentrated on a few accounts", () => {
    const s = { ...healthy, interactions: 40, topThreeInteractions: 36, distinctCounterparts: 3 };
    const signals = washSignals(s);
    expect(signals.CONCENTRATED_INTERACTIONS).toBeCloseTo(0.9, 5);
    expect(signals.FEW_COUNTERPARTS).toBe(0.6);
    expect(scoreAgent(s, "24h").washConfidence).toBeCloseTo(1 - 0.1 * 0.4, 4);
  });

  it("flags self-interactions and runs that all fail", () => {
    const s = { ...healthy, runsSucceeded: 0, selfInteractions: 15, interactions: 50 };
    const score = scoreAgent(s, "7d");
    expect(score.washFlags.sort()).toEqual(["ALL_RUNS_FAILED", "SELF_INTERACTIONS"]);
    expect(score.washConfidence).toBeCloseTo(1 - (1 - 0.6) * (1 - 0.5), 4);
  });

  it("needs enough interactions before judging their spread", () => {
    expect(washSignals({ ...healthy, interactions: 9, topThreeInteractions: 9, distinctCounterparts: 1 })).toEqual({});
    expect(washSignals({ ...healthy, runsTotal: 2, runsSucceeded: 0 })).toEqual({});
  });
});

describe("composite", () => {
  it("is the weighted sum out of 100, discounted by 80% of the wash confidence", () => {
    const c = components(healthy, "24h");
    const raw =
      100 * (0.25 * c.reliability + 0.15 * c.activity + 0.2 * c.output + 0.25 * c.engagement + 0.15 * c.creator);
    expect(scoreAgent(healthy, "24h").composite).toBeCloseTo(raw, 2);
    const washed = { ...healthy, interactions: 40, topThreeInteractions: 40, distinctCounterparts: 2 };
    const w = scoreAgent(washed, "24h");
    const cw = components(washed, "24h");
    const rawWashed =
      100 * (0.25 * cw.reliability + 0.15 * cw.activity + 0.2 * cw.output + 0.25 * cw.engagement + 0.15 * cw.creator);
    expect(w.composite).toBeCloseTo(rawWashed * (1 - 0.8 * w.washConfidence), 2);
    expect(w.composite).toBeLessThan(scoreAgent(healthy, "24h").composite);
  });

  it("stays within 0..100", () => {
    const maxed = {
      ...healthy,
      runsTotal: 1e6,
      runsSucceeded: 1e6,
      posts: 1e6,
      interactions: 1e6,
      topThreeInteractions: 3,
      distinctCounterparts: 1e6,
      creatorNeynarScore: 1,
    };
    const score = scoreAgent(maxed, "24h");
    expect(score.composite).toBeGreaterThan(99);
    expect(score.composite).toBeLessThanOrEqual(100);
    expect(scoreAgent(quiet, "24h").composite).toBeCloseTo(12.5, 2); // reliability 0.5 × 0.25 only
  });
});
