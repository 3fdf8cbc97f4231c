// Word lists of the synthetic dataset. Words are drawn Zipf-like, so a few are in many token names and
// most are in few: search benchmarks get common, rare and two-character terms with known frequencies.
import { type Prng, Zipf } from "./prng";

/** Most frequent first (the Zipf ranks follow list order). */
const ADJECTIVES = `based moon baby super mega little degen happy golden purple based dark tiny
  giga wild lucky cosmic blue red green frosty spicy sleepy crazy magic royal silent brave
  hyper turbo crypto onchain smol chonky fluffy angry sad funny ancient electric neon pixel
  quantum atomic lazy sneaky shiny sacred cursed retro pink orange silver iron velvet rusty
  lunar solar stellar hidden secret wise grumpy jolly mystic savage gentle noble feral
  frozen burning flying dancing laughing crying sigma alpha beta omega meta ultra`
  .split(/\s+/)
  .filter((w, i, all) => all.indexOf(w) === i);

const NOUNS = `cat dog frog pepe doge coin moon rocket whale ape bear bull toad shark banana
  pizza wizard king queen punk ninja robot alien ghost dragon tiger panda fox wolf duck
  goose penguin otter hamster bunny llama unicorn mochi taco burger cookie donut cheese
  bread egg potato carrot mushroom flower tree star sun cloud rain storm wave fire ice
  gem diamond gold cash money bag hat cap shoe sock chair house castle island planet
  galaxy comet orbit portal dream vibe mood meme bot agent brain eye hand heart soul
  spirit angel demon monk chef pilot captain sailor farmer miner builder artist poet
  singer drummer gamer hacker trader bag chad wojak anon fren gm wagmi ser hodl pump
  lambo yacht boat train plane bike skate surf snow beach desert jungle forest river
  ocean lake mountain valley cave tower bridge road city village farm garden kitchen`
  .split(/\s+/)
  .filter((w, i, all) => all.indexOf(w) === i);

const SUFFIXES = ["coin", "token", "ai", "inu", "dao", "fi", "x", "on base", "club", "world"];

const SYLLABLES = `ka zo ri mu te lo vi na qu ex on ar ix ul by ze po fa gi ko ru sa ti wo
  xa yo zu bri cla dro fle gra klo pra stu tri vex zor lux nex`.split(/\s+/);

/**
 * Each rare word is put in about 1 of every RARE_EVERY token names (5 per 100,000 tokens),
 * so a search for one finds a handful of rows among a million.
 */
const RARE_WORDS = ["quokka", "axolotl", "narwhal", "pangolin", "okapi", "capybara", "tardigrade", "kakapo"];
const RARE_EVERY = 20_000;

/** Search terms with known frequencies, for benchmarks and tests (case-insensitive substrings). */
export const SEARCH_TERMS = {
  /** the most frequent adjective: in a few percent of names */
  common: "based",
  /** in about 5 names per 100,000 tokens */
  rare: "quokka",
  /** a two-character substring of many names */
  twoChar: "ai",
} as const;

const adjectiveRanks = new Zipf(ADJECTIVES.length, 1.0);
const nounRanks = new Zipf(NOUNS.length, 0.9);

const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

function inventedWord(rng: Prng): string {
  let word = "";
  for (let i = rng.between(2, 3); i > 0; i--) word += rng.pick(SYLLABLES);
  return word;
}

const adjective = (rng: Prng) => ADJECTIVES[adjectiveRanks.sample(rng)];
const noun = (rng: Prng) => NOUNS[nounRanks.sample(rng)];

/** A token name: mostly "Adjective Noun" and single nouns, some invented words, a few rare words. */
export function tokenName(rng: Prng): string {
  if (rng.chance(RARE_WORDS.length / RARE_EVERY)) return `${capital(adjective(rng))} ${capital(rng.pick(RARE_WORDS))}`;
  const shape = rng.float();
  if (shape < 0.45) return `${capital(adjective(rng))} ${capital(noun(rng))}`;
  if (shape < 0.65) return capital(noun(rng));
  if (shape < 0.78) return `${capital(noun(rng))} ${capital(rng.pick(SUFFIXES))}`;
  if (shape < 0.88) return `${capital(noun(rng))} ${capital(noun(rng))}`;
  if (shape < 0.96) return capital(inventedWord(rng));
  return `The ${capital(adjective(rng))} ${capital(noun(rng))}`;
}

/** A ticker from the name: the single word, the initials, or now and then something unrelated. */
export function tokenSymbol(rng: Prng, name: string): string {
  const words = name.split(" ");
  if (words[0] === "The") words.shift();
  let symbol: string;
  if (rng.chance(0.08)) symbol = inventedWord(rng);
  else if (words.length === 1) symbol = words[0].slice(0, rng.between(3, 6));
  else if (rng.chance(0.5))
    symbol = words[0][0] + words[1][0] + (words[2]?.[0] ?? "") + words[words.length - 1].slice(1, 3);
  else symbol = words[words.length - 1].slice(0, 6);
  return (
    symbol
      .replace(/[^a-z0-9]/gi, "")
      .slice(0, 8)
      .toUpperCase() || "TKN"
  );
}

/** A one-sentence description made of the same words. */
export function tokenDescription(rng: Prng, name: string): string {
  switch (rng.int(4)) {
    case 0:
      return `${name} is the community token of the ${rng.pick(NOUNS)} people.`;
    case 1:
      return `The first ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} on Base.`;
    case 2:
      return `${name}: ${rng.pick(ADJECTIVES)} vibes only.`;
    default:
      return `A token for every ${rng.pick(NOUNS)} who believes.`;
  }
}

/** A username stem; the caller makes it unique. */
export function usernameStem(rng: Prng): string {
  const shape = rng.float();
  if (shape < 0.4) return `${rng.pick(ADJECTIVES)}${rng.pick(NOUNS)}`;
  if (shape < 0.7) return rng.pick(NOUNS) + rng.between(1, 999);
  if (shape < 0.9) return inventedWord(rng);
  return `${inventedWord(rng)}.eth`;
}

export function displayName(rng: Prng, username: string): string {
  const base = username.replace(/\.eth$/, "").replace(/\d+$/, "");
  return rng.chance(0.7) ? capital(base) : `${capital(rng.pick(ADJECTIVES))} ${capital(rng.pick(NOUNS))}`;
}
