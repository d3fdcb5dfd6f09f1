// The projection tables as storage: every table of every schema the
// registry lists for a projection (active, building or retired, since a
// retired schema is still on disk until it is dropped), its rows about the
// subject fetched as text and searched here — never a LIKE with the needle,
// which would send the plaintext to the server and possibly to its log.
import { sql } from 'kysely';
import { findNeedles } from '../../reads/erasure/needles.js';
import { passedOrFailed, type ErasureCheck, type ErasureTarget } from '../../reads/erasure/verification.js';
import { PROJECTIONS } from '../../projections/index.js';
import { schemasOf } from '../../projections/runtime/registry.js';
import type { ProjectionsKysely } from '../../projections/runtime/schema-handles.js';

const SUBJECT_COLUMNS = [
  ['tenant', 'subject'],
  ['target_tenant', 'target_subject'],
] as const;

async function tablesOf(db: ProjectionsKysely, schema: string): Promise<Array<{ table: string; columns: Set<string> }>> {
  const rows = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = ${schema} and t.table_type = 'BASE TABLE'`.execute(db);
  const tables = new Map<string, Set<string>>();
  for (const row of rows.rows) {
    const columns = tables.get(row.table_name) ?? new Set<string>();
    columns.add(row.column_name);
    tables.set(row.table_name, columns);
  }
  return [...tables].map(([table, columns]) => ({ table, columns })).sort((a, b) => a.table.localeCompare(b.table));
}

async function rowsAbout(
  db: ProjectionsKysely,
  schema: string,
  table: string,
  columns: Set<string>,
  target: ErasureTarget,
): Promise<string[]> {
  const pair = SUBJECT_COLUMNS.find(([t, s]) => columns.has(t) && columns.has(s));
  const from = sql.id(schema, table);
  const query = pair
    ? sql<{
        row: string;
      }>`select r::text as row from ${from} as r where ${sql.ref(`r.${pair[0]}`)} = ${target.ref.tenant} and ${sql.ref(`r.${pair[1]}`)} = ${target.ref.subject}`
    : sql<{ row: string }>`select r::text as row from ${from} as r`;
  return (await query.execute(db)).rows.map((r) => r.row);
}

/** One check per projection: `projection:{name}`, the note naming the tables that still hold something. */
export function projectionTablesChecks(db: ProjectionsKysely): ErasureCheck[] {
  return PROJECTIONS.map((definition) => ({
    path: `projection:${definition.name}`,
    async run(target) {
      let searched = 0;
      let findings = 0;
      const holding: string[] = [];
      for (const schema of await schemasOf(db, definition.name)) {
        for (const { table, columns } of await tablesOf(db, schema.schema_name)) {
          const rows = await rowsAbout(db, schema.schema_name, table, columns, target);
          const found = rows.reduce((n, row) => n + findNeedles(row, target.needles), 0);
          searched += rows.length;
          findings += found;
          if (found > 0) holding.push(`${schema.schema_name}.${table}`);
        }
      }
      return passedOrFailed(searched, findings, holding.length > 0 ? `still held by ${holding.join(', ')}` : undefined);
    },
  }));
}
