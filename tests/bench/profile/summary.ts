// What a CPU profile of the server under one scenario's load says: CPU time per request, where it goes by
// area (the service's own code by folder, each package, Node's internals, V8's built-ins, garbage
// collection), and the functions with the most self time, located in the original sources through the
// build's source maps (the server runs bundled, minified chunks of .next/server).
import { existsSync, readFileSync } from "node:fs";
import { SourceMap, type SourceMapping } from "node:module";
import { fileURLToPath } from "node:url";

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type CpuProfile = {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};

export type ProfileSummary = {
  requests: number;
  /** wall-clock seconds profiled */
  seconds: number;
  /** CPU time of the server (samples not idle) per request served, ms */
  cpuMsPerRequest: number;
  areas: { area: string; msPerRequest: number; share: number }[];
  functions: { name: string; where: string; area: string; msPerRequest: number; share: number }[];
};

const TOP_AREAS = 10;
const TOP_FUNCTIONS = 15;
const IDLE = new Set(["(idle)", "(root)"]);

type Located = { area: string; where: string; name: string };

/** Finds where generated code came from, one source map per bundled file. */
class Locator {
  private maps = new Map<string, SourceMap | null>();

  private mapOf(url: string): SourceMap | null {
    if (!this.maps.has(url)) {
      let map: SourceMap | null = null;
      try {
        const file = `${fileURLToPath(url)}.map`;
        if (existsSync(file)) map = new SourceMap(JSON.parse(readFileSync(file, "utf8")));
      } catch {
        map = null;
      }
      this.maps.set(url, map);
    }
    return this.maps.get(url)!;
  }

  locate(frame: CallFrame): Located {
    const name = frame.functionName || "(anonymous)";
    if (frame.functionName.startsWith("(") && !frame.url) return { area: frame.functionName, where: "", name };
    if (!frame.url) return { area: "V8 built-ins", where: "", name };
    if (frame.url.startsWith("node:")) return { area: "Node.js internals", where: frame.url, name };
    let source = frame.url.startsWith("file:") ? fileURLToPath(frame.url) : frame.url;
    let line = frame.lineNumber + 1;
    const found = frame.url.includes("/.next/")
      ? this.mapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber)
      : undefined;
    const entry = found && "originalSource" in found ? (found as SourceMapping & { name?: string }) : undefined;
    if (entry) {
      source = entry.originalSource;
      line = entry.originalLine + 1;
    }
    const { area, file } = areaOf(source);
    return { area, where: `${file}:${line}`, name: entry?.name || name };
  }
}

/** The package a node_modules path belongs to, or the service's folder (lib/domains/tokens, lib/http, app, db). */
function areaOf(source: string): { area: string; file: string } {
  const clean = decodeURIComponent(source).replace(/^.*\[project\]\//, "");
  const inModules = clean.lastIndexOf("node_modules/");
  if (inModules >= 0) {
    const rest = clean.slice(inModules + "node_modules/".length);
    const parts = rest.split("/");
    const pkg = parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
    return { area: pkg === "next" ? "next (framework)" : pkg, file: rest };
  }
  const file = clean.replace(/^(\.\.\/)+/, "").replace(/^.*\/work\/[^/]+\//, "");
  const parts = file.split("/");
  const folder =
    parts[0] === "lib" ? parts.slice(0, parts[1] === "domains" || parts[1] === "platform" ? 3 : 2) : parts.slice(0, 1);
  return { area: `service: ${folder.join("/")}`, file };
}

/** Self time per function and per area of one profile, per request served while it ran. */
export function summariseProfile(file: string, requests: number): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    // timeDeltas[i + 1] is the time from sample i to the next: the time sample i stands for.
    const us = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + us);
  }
  const locator = new Locator();
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, Located & { us: number }>();
  let busyUs = 0;
  for (const node of profile.nodes) {
    const us = selfUs.get(node.id);
    if (!us || IDLE.has(node.callFrame.functionName)) continue;
    busyUs += us;
    const at = locator.locate(node.callFrame);
    byArea.set(at.area, (byArea.get(at.area) ?? 0) + us);
    const key = `${at.name}@${at.where}`;
    const seen = byFunction.get(key);
    if (seen) seen.us += us;
    else byFunction.set(key, { ...at, us });
  }
  const n = Math.max(1, requests);
  const perRequest = (us: number) => Math.round((us / 1000 / n) * 1000) / 1000;
  const share = (us: number) => Math.round((us / Math.max(1, busyUs)) * 1000) / 10;
  return {
    requests,
    seconds: Math.round((profile.endTime - profile.startTime) / 1e4) / 100,
    cpuMsPerRequest: perRequest(busyUs),
    areas: [...byArea]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP_AREAS)
      .map(([area, us]) => ({ area, msPerRequest: perRequest(us), share: share(us) })),
    functions: [...byFunction.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, TOP_FUNCTIONS)
      .map((f) => ({ name: f.name, where: f.where, area: f.area, msPerRequest: perRequest(f.us), share: share(f.us) })),
  };
}
