// Kysely's log, as telemetry: each statement's operation and table (never its text or values) with its duration, as a
// span and in db.client.operation.duration. db() installs it only when telemetry is on (lib/core/telemetry.ts).
import type { LogEvent, OperationNode, RootOperationNode } from "kysely";
import { recordStatement } from "../lib/core/telemetry";

const OPERATIONS: Partial<Record<RootOperationNode["kind"], string>> = {
  SelectQueryNode: "SELECT",
  InsertQueryNode: "INSERT",
  UpdateQueryNode: "UPDATE",
  DeleteQueryNode: "DELETE",
  MergeQueryNode: "MERGE",
};

/** The table a node names: a table, or an aliased one. */
function tableOf(node: OperationNode | undefined): string | undefined {
  if (node?.kind === "AliasNode") return tableOf((node as unknown as { node: OperationNode }).node);
  if (node?.kind !== "TableNode") return undefined;
  return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
}

/** The statement's first table: FROM of a select or delete, INTO of an insert, the updated or merged table. */
function statementTable(query: RootOperationNode): string | undefined {
  const q = query as unknown as {
    from?: { froms: OperationNode[] };
    into?: OperationNode;
    table?: OperationNode;
  };
  return tableOf(q.from?.froms[0] ?? q.into ?? q.table);
}

/** A raw statement is named by its first word (BEGIN, COMMIT, SELECT...); a built one by its kind. */
function operationOf(event: LogEvent): string {
  const { query, sql } = event.query;
  return OPERATIONS[query.kind] ?? /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? "SQL";
}

export function logStatement(event: LogEvent): void {
  const table = OPERATIONS[event.query.query.kind] ? statementTable(event.query.query) : undefined;
  const error = event.level === "error" ? event.error : undefined;
  recordStatement(operationOf(event), table, event.queryDurationMillis, error);
}
