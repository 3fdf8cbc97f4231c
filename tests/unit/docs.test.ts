// The documents (README.md and docs/*.md) stay true to the code and to each other:
// - every heading the code cites (a file name followed by a quoted heading, README or a docs/ file) exists there;
// - no tracker numbers, in the documents or in the code;
// - the documents and the code comments stay inside the repository: no path that leaves it, no document that is
//   not in it;
// - every relative link of the documents reaches an existing file, and an existing heading when it names one.
// - the prose is plain: no sentence over 35 words, no table cell padded with spaces (the written documents; the
//   generated ones are their generators' to word);
// - docs/ stays short: its .md files, generated ones included, hold at most 203,000 bytes together (half of what
//   they were).
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const rel = (file: string) => path.relative(root, file).split(path.sep).join("/");
const self = "tests/unit/docs.test.ts";

/** Generated or vendored trees that are not ours to word. */
const SKIPPED = [
  "node_modules",
  ".git",
  ".next",
  "tests/bench/results",
  "tests/reliability/results",
  "tests/e2e/artifacts",
  "dev/chain/artifacts",
];
const skipped = (file: string) =>
  SKIPPED.some((s) => rel(file) === s || rel(file).startsWith(`${s}/`)) || path.basename(file).startsWith(".next");

function walk(dir: string, pattern: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (skipped(full)) return [];
    return e.isDirectory() ? walk(full, pattern) : pattern.test(e.name) ? [full] : [];
  });
}

/** TypeScript, the few .mjs files, and the local contracts' Solidity (their comments are code comments too). */
const SOURCE = /\.(ts|tsx|mjs|sol)$/;
const sources = [
  ...["lib", "app", "dev", "db", "tests"].flatMap((dir) => walk(path.join(root, dir), SOURCE)),
  ...readdirSync(root)
    .filter((f) => SOURCE.test(f))
    .map((f) => path.join(root, f)),
];
const documents = [path.join(root, "README.md"), ...walk(path.join(root, "docs"), /\.md$/)];
const read = (file: string) => readFileSync(file, "utf8");

/** Lines outside fenced code blocks, with their numbers. */
function proseLines(markdown: string): { line: string; n: number }[] {
  let fenced = false;
  return markdown.split("\n").flatMap((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ line, n: i + 1 }];
  });
}

/** A heading's text as a reader sees it: no `#`s, no inline code marks, emphasis or link targets. */
const headingText = (raw: string) =>
  raw
    .replace(/\s+#+\s*$/, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .trim();

function headings(file: string): string[] {
  return proseLines(read(file)).flatMap(({ line }) => {
    const m = /^#{1,6}\s+(.+)$/.exec(line);
    return m ? [headingText(m[1]!)] : [];
  });
}

/** GitHub's anchor of a heading: lowercase, punctuation dropped (but - and _), spaces to -; repeats get -1, -2, ... */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const h of headings(file)) {
    const base = slug(h);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count ? `${base}-${count}` : base);
  }
  return out;
}

/** Comment text of a source file: whole comment lines and trailing `// …` comments, with line numbers. */
function comments(source: string): { text: string; n: number }[] {
  let block = false;
  return source.split("\n").flatMap((line, i) => {
    const t = line.trim();
    if (block) {
      if (t.includes("*/")) block = false;
      return [{ text: t, n: i + 1 }];
    }
    if (t.startsWith("/*")) {
      block = !t.includes("*/");
      return [{ text: t, n: i + 1 }];
    }
    if (t.startsWith("//") || t.startsWith("*")) return [{ text: t, n: i + 1 }];
    const trailing = /(?:^|\s)(\/\/\s.*)$/.exec(line);
    return trailing ? [{ text: trailing[1]!, n: i + 1 }] : [];
  });
}

describe("headings cited by the code", () => {
  // README "Heading", README.md "Heading", README, "Heading", docs/<file>.md "Heading" (quotes may be escaped in a string).
  const CITATION = /\b(README(?:\.md)?|docs\/[\w.-]+\.md)(?:[,:])?\s+(?:section\s+)?\\?"([^"\\\n]+)\\?"/g;
  const citations = sources
    .filter((f) => rel(f) !== self)
    .flatMap((file) =>
      read(file)
        .split("\n")
        .flatMap((line, i) =>
          [...line.matchAll(CITATION)].map((m) => ({
            at: `${rel(file)}:${i + 1}`,
            doc: m[1]!.startsWith("README") ? "README.md" : m[1]!,
            heading: m[2]!.trim(),
          })),
        ),
    );

  it("finds the citations (the scan works)", () => {
    expect(citations.length).toBeGreaterThan(5);
  });

  it("each names a document that exists and a heading it has", () => {
    const broken = citations.flatMap(({ at, doc, heading }) => {
      const file = path.join(root, doc);
      if (!existsSync(file)) return [`${at}: ${doc} does not exist`];
      const known = headings(file).map((h) => h.toLowerCase());
      return known.includes(heading.toLowerCase()) ? [] : [`${at}: ${doc} has no heading "${heading}"`];
    });
    expect(broken).toEqual([]);
  });
});

describe("no tracker numbers", () => {
  const TRACKER = [
    // "issue 3", "Issue #17"; not "Privy issue 1 h tokens" (the verb before a duration)
    /\b[Ii]ssues?\s+#?\d+\b(?!\s*(?:ms|s|h|m|min|mins|d|hours?|minutes?|seconds?|days?|weeks?)\b)/,
    /\(#\d+\)/,
    /(?:^|[\s([,;])#\d+\b/,
    /\b[Tt]asks?\s+#?\d+\b/,
    /\b(?:PR|[Pp]ull request|[Tt]icket)\s*#?\d+\b/,
  ];
  const files = [
    ...documents,
    ...sources.filter((f) => rel(f) !== self),
    path.join(root, ".env.example"),
    path.join(root, ".ci/run"),
  ].filter((f) => existsSync(f));

  it("in the documents (headings included), the code and its comments", () => {
    const found = files.flatMap((file) =>
      read(file)
        .split("\n")
        .flatMap((line, i) => (TRACKER.some((re) => re.test(line)) ? [`${rel(file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});

describe("the documents are self-contained", () => {
  /** Relative paths that climb (`../x`), resolved from the file that names them. */
  const climbing = (text: string, from: string) =>
    [...text.replace(/https?:\/\/\S+/g, "").matchAll(/(?:^|[^\w./-])((?:\.\.\/)+[\w.@*-][\w./@*-]*)/g)]
      .map((m) => m[1]!)
      .filter((p) => !inside(path.resolve(path.dirname(from), p)));
  /** Markdown file names mentioned: each must be a file of this repository (from the naming file, the root or docs/). */
  const missingDocuments = (text: string, from: string) =>
    [...text.replace(/https?:\/\/\S+/g, "").matchAll(/(?:^|[^\w./-])([\w./-]*[\w-]\.md)\b/g)]
      .map((m) => m[1]!)
      .filter(
        (name) =>
          ![path.dirname(from), root, path.join(root, "docs")].some((dir) => {
            const file = path.resolve(dir, name);
            return inside(file) && existsSync(file) && statSync(file).isFile();
          }),
      );

  it("README.md and docs/*.md name no path outside the repository and no document that is not in it", () => {
    const found = documents.flatMap((file) =>
      proseLines(read(file)).flatMap(({ line, n }) => [
        ...(/\.\.\/shared\b/.test(line) ? [`${rel(file)}:${n}: ../shared`] : []),
        ...climbing(line, file).map((p) => `${rel(file)}:${n}: ${p}`),
        ...missingDocuments(line, file).map((p) => `${rel(file)}:${n}: ${p}`),
      ]),
    );
    expect(found).toEqual([]);
  });

  it("code comments name no path outside the repository and no document that is not in it", () => {
    const found = sources
      .filter((f) => rel(f) !== self)
      .flatMap((file) =>
        comments(read(file)).flatMap(({ text, n }) => [
          ...(/\.\.\/shared\b/.test(text) ? [`${rel(file)}:${n}: ../shared`] : []),
          ...climbing(text, file).map((p) => `${rel(file)}:${n}: ${p}`),
          ...missingDocuments(text, file).map((p) => `${rel(file)}:${n}: ${p}`),
        ]),
      );
    expect(found).toEqual([]);
  });
});

describe("links between the documents", () => {
  const LINK = /\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)|^\s*\[[^\]]+\]:\s*(\S+)/g;
  const links = documents.flatMap((file) =>
    proseLines(read(file)).flatMap(({ line, n }) =>
      [...line.replace(/`[^`]*`/g, "").matchAll(LINK)].map((m) => ({
        at: `${rel(file)}:${n}`,
        from: file,
        target: (m[1] ?? m[2])!,
      })),
    ),
  );
  const relative = links.filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target));

  it("finds the links (the scan works)", () => {
    expect(relative.length).toBeGreaterThan(20);
  });

  it("every relative link reaches a file of the repository, and a heading when it names one", () => {
    const broken = relative.flatMap(({ at, from, target }) => {
      const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
      const file = pathPart ? path.resolve(path.dirname(from), decodeURIComponent(pathPart)) : from;
      if (!inside(file)) return [`${at}: ${target} leaves the repository`];
      if (!existsSync(file)) return [`${at}: ${target}: no such file`];
      if (anchor === undefined) return [];
      if (!file.endsWith(".md")) return [`${at}: ${target}: an anchor into a file that is not markdown`];
      return anchors(file).has(decodeURIComponent(anchor)) ? [] : [`${at}: ${target}: no such heading in ${rel(file)}`];
    });
    expect(broken).toEqual([]);
  });

  it("computes GitHub's anchors", () => {
    expect(slug("Production (Vercel + Neon + Upstash + QStash)")).toBe("production-vercel--neon--upstash--qstash");
    expect(slug("Agents' activity")).toBe("agents-activity");
    expect(slug("GET /api/droid/leaderboard")).toBe("get-apidroidleaderboard");
    expect(slug("snake_case and kebab-case")).toBe("snake_case-and-kebab-case");
  });
});

describe("plain prose", () => {
  /** Written by a command, not by hand: their wording is their generator's (tests/bench/, tests/reliability/). */
  const GENERATED = ["docs/BENCH.md", "docs/reliability.md"];
  const written = documents.filter((f) => !GENERATED.includes(rel(f)));
  const MAX_WORDS = 35;

  /** A table row's cells, split on the pipes that are not escaped; the row's outer pipes are dropped. */
  const cells = (row: string) =>
    row
      .trim()
      .replace(/^\|/, "")
      .replace(/(?<!\\)\|$/, "")
      .split(/(?<!\\)\|/);
  const isTableRow = (line: string) => line.trimStart().startsWith("|");

  /**
   * The prose of a document as paragraphs: lines outside code fences and headings, a list item starting a paragraph of
   * its own, and each table cell read as prose of its own (a cell is read as a sentence is, so it is held to the same
   * length).
   */
  function paragraphs(markdown: string): { text: string; n: number }[] {
    const out: { text: string; n: number }[] = [];
    let current: { text: string; n: number } | undefined;
    const flush = () => {
      if (current) out.push(current);
      current = undefined;
    };
    for (const { line, n } of proseLines(markdown)) {
      const t = line.trim();
      if (!t || /^#{1,6}\s/.test(t) || /^<!--.*-->$/.test(t)) {
        flush();
        continue;
      }
      if (isTableRow(t)) {
        flush();
        for (const cell of cells(t)) if (!/^\s*:?-+:?\s*$/.test(cell)) out.push({ text: cell, n });
        continue;
      }
      if (/^([-*+]|\d+\.)\s/.test(t)) flush();
      const item = t.replace(/^([-*+]|\d+\.)\s+/, "");
      current = current ? { text: `${current.text} ${item}`, n: current.n } : { text: item, n };
    }
    flush();
    return out;
  }

  /** Sentences of a paragraph, ignoring code spans, link targets and URLs; "e.g.", "i.e." and decimals end none. */
  const sentences = (text: string) =>
    text
      .replace(/`[^`]*`/g, " ")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/https?:\/\/\S+/g, " ")
      .replace(/\b(e\.g|i\.e|etc|vs|cf)\./gi, "$1")
      .replace(/(\d)\.(\d)/g, "$1$2")
      .split(/[.!?](?:\s+|$)/)
      .map((s) => s.trim())
      .filter(Boolean);
  const words = (sentence: string) => sentence.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

  it("reads sentences as a reader does", () => {
    const found = paragraphs(
      "# T\n\nOne two, e.g. three `a. b. c` four.\nFive [six](x.md#y) 1.5 seven.\n\n| a | b c. D |\n",
    );
    expect(found.flatMap((p) => sentences(p.text)).map(words)).toEqual([5, 4, 1, 2, 1]);
  });

  it(`no sentence of README.md and docs/*.md is over ${MAX_WORDS} words`, () => {
    const long = written.flatMap((file) =>
      paragraphs(read(file)).flatMap(({ text, n }) =>
        sentences(text)
          .filter((s) => words(s) > MAX_WORDS)
          .map((s) => `${rel(file)}:${n}: ${words(s)} words: ${s.slice(0, 80)}…`),
      ),
    );
    expect(long).toEqual([]);
  });

  it("docs/*.md hold at most 203,000 bytes together (one home per fact: link rather than repeat)", () => {
    const docs = path.join(root, "docs");
    const files = readdirSync(docs).filter((f) => f.endsWith(".md"));
    const bytes = files.reduce((sum, f) => sum + statSync(path.join(docs, f)).size, 0);
    expect(bytes).toBeLessThanOrEqual(203_000);
  });

  it("no table cell of README.md and docs/*.md is padded with spaces", () => {
    const padded = written.flatMap((file) =>
      proseLines(read(file)).flatMap(({ line, n }) =>
        isTableRow(line) && cells(line).some((c) => /^\s{2,}\S|\S\s{2,}$/.test(c)) ? [`${rel(file)}:${n}`] : [],
      ),
    );
    expect(padded).toEqual([]);
  });
});

function inside(file: string): boolean {
  const r = path.relative(root, file);
  return r === "" || (!r.startsWith("..") && !path.isAbsolute(r));
}
