// The rule for commit messages (docs/development.md#commit-messages): a subject of at most 72 characters in the
// imperative, then a blank line and a body for the why. Pure, so that a test can hold it to examples.

export const MAX_SUBJECT = 72;

/** Past tenses that are also verbs' plain forms ("Seed", "Embed"): "-eed" words, and these. */
const PLAIN_ED = new Set(["embed", "shed", "shred", "wed", "bed"]);

/** Why the first word does not read as an imperative ("Added", "Adding", "Adds"), or null. */
function notImperative(word: string): string | null {
  const w = word.toLowerCase();
  if (!/^[a-z]/.test(w)) return null; // a name or a path ("`tokens`", "v4"): the rule cannot tell
  if (w.endsWith("ing") && w.length > 5) return `"${word}" is a gerund`;
  if (w.endsWith("ed") && !w.endsWith("eed") && !PLAIN_ED.has(w)) return `"${word}" is a past tense`;
  if (/(?:[^aeiosu]|[^s]e)s$/.test(w) && w.length > 3) return `"${word}" is a third person`;
  return null;
}

/** What breaks the rule in one message (subject line first); empty when it holds. */
export function commitProblems(message: string): string[] {
  const [subject = "", second] = message.replace(/\s+$/, "").split("\n");
  const problems: string[] = [];
  if (!subject.trim()) return ["the subject is empty"];
  if (subject.length > MAX_SUBJECT)
    problems.push(`the subject has ${subject.length} characters (at most ${MAX_SUBJECT})`);
  if (/\.\s*$/.test(subject)) problems.push("the subject ends with a full stop");
  if (!/^[A-Z`]/.test(subject)) problems.push("the subject does not start with a capital letter");
  const verb = notImperative(subject.split(/\s+/)[0] ?? "");
  if (verb) problems.push(`the subject is not in the imperative: ${verb}`);
  if (second !== undefined && second.trim() !== "")
    problems.push("the body is not separated from the subject by a blank line");
  return problems;
}
