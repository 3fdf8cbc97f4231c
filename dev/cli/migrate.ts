// npm run db:migrate: applies pending migrations to the configured database.
import { db } from "@/db";
import { migrateToLatest } from "@/db/migrate";
import { runCommand } from "./args";

await runCommand(async () => {
  const applied = await migrateToLatest(db());
  console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
});
