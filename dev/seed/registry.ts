// Domain seeders: each domain that owns tables adds its synthetic rows after the core dataset
// (users, tokens, market rows) exists. To add one: write `dev/seed/<domain>.ts` exporting a
// DomainSeeder (dev/seed/types.ts), then add one import and one entry to `domainSeeders` below.
import type { DomainSeeder } from "./types";
import { airdropsSeeder } from "./airdrops";
import { leaderboardSeeder } from "./leaderboard";
import { marketSeeder } from "./market";
import { presalesSeeder } from "./presales";

export const domainSeeders: DomainSeeder[] = [presalesSeeder, airdropsSeeder, leaderboardSeeder, marketSeeder];
