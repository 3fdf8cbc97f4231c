// Bulk inserts for the seed: one `INSERT … SELECT … FROM unnest($1::type[], …)` per batch, so a batch of
// thousands of rows is one statement with one parameter per input column (and works on PGlite as on pg).
// Arrays are encoded by db/array-literal.ts rather than by the driver: skipping its per-element escaping halves
// the seed's own CPU time.
import { CompiledQuery, type QueryResult } from "kysely";
import { arrayLiteral } from "@/db/array-literal";

/** A Kysely instance or one of its single connections (`db.connection().execute(conn => …)`). */
export type QueryRunner = { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> };

/**
 * An input column: its name, its Postgres element type, and whether its values are "plain" (numbers,
 * booleans, hex, ISO timestamps, fixed identifiers: never empty, no spaces, quotes, commas or braces, and
 * never the word NULL). Other text is quoted and escaped. Array- and json-typed values travel as text and
 * are cast per row, because unnest() flattens a two-dimensional array instead of yielding its rows.
 */
export type ColumnSpec = readonly [name: string, type: string, encoding?: "plain"];

export type Columns = Record<string, unknown[]>;

function isTextSent(type: string): boolean {
  return type.endsWith("[]") || type === "jsonb" || type === "json";
}

/**
 * The statement for a table. Each input goes into the column of its name, except inputs named "_…"
 * (helpers for computed columns); `select` adds or overrides target columns as SQL over `u.<input>`.
 */
export function insertStatement(
  table: string,
  inputs: readonly ColumnSpec[],
  select: Record<string, string> = {},
): string {
  const names = inputs.map(([name]) => name).join(", ");
  const direct = inputs.filter(([name]) => !name.startsWith("_"));
  const targets = {
    ...Object.fromEntries(direct.map(([name, type]) => [name, isTextSent(type) ? `u.${name}::${type}` : `u.${name}`])),
    ...select,
  };
  const unnest = inputs.map(([, type], i) => `$${i + 1}::${isTextSent(type) ? "text" : type}[]`).join(", ");
  return `INSERT INTO ${table} (${Object.keys(targets).join(", ")}) SELECT ${Object.values(targets).join(", ")} FROM unnest(${unnest}) AS u(${names})`;
}

export class BatchInserter {
  private readonly text: string;

  constructor(
    private readonly connection: QueryRunner,
    private readonly inputs: readonly ColumnSpec[],
    table: string,
    select?: Record<string, string>,
  ) {
    this.text = insertStatement(table, inputs, select);
  }

  /** Inserts one batch given as column arrays of equal length; returns the rows inserted. */
  async insert(values: Columns): Promise<number> {
    const params = this.inputs.map(([name, , encoding]) => {
      const column = values[name];
      if (!column) throw new Error(`seed: no values for column ${name}`);
      return arrayLiteral(column, encoding === "plain");
    });
    const result = await this.connection.executeQuery(CompiledQuery.raw(this.text, params));
    return Number(result.numAffectedRows ?? 0);
  }
}
