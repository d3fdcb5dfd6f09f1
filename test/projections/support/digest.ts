// A digest of a projection schema's tables (its read model's and the faults): per table, the row count and an
// md5 of its rows sorted (computed by PostgreSQL), so two builds can be
// compared row for row without shipping the rows.
import { sql, type Kysely } from 'kysely';

export type Digest = Record<string, { rows: number; md5: string }>;

/** Columns that name where and when the log was written (positions, commit times), for comparing builds from different stores. */
export const LOG_PLACE_COLUMNS = [
  'tx_from',
  'tx_to',
  'tx_from_commit',
  'tx_from_prepare',
  'tx_to_commit',
  'tx_to_prepare',
  'tx',
  'commit',
  'prepare',
  'detected_tx',
  'detected_commit',
  'detected_prepare',
  'resolved_tx',
  'resolved_commit',
  'resolved_prepare',
  'updated_tx',
  'updated_commit',
  'updated_prepare',
  'generated_tx',
  'generated_commit',
  'generated_prepare',
  'published_tx',
  'published_commit',
  'published_prepare',
  'cause_tx',
  'cause_commit',
  'cause_prepare',
  'marked_commit',
  'marked_prepare',
  'recorded_at',
];

/** Every table of the schema but the checkpoint (which says where the build stands, not what it holds): what two builds must agree on. */
async function digestedTables(db: Kysely<any>, schema: string): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
     where table_schema = ${schema} and table_name <> 'checkpoint' order by table_name`.execute(db);
  return rows.map((r) => r.table_name);
}

export async function digestSchema(db: Kysely<any>, schema: string, options: { exclude?: readonly string[] } = {}): Promise<Digest> {
  const digest: Digest = {};
  const tables = await digestedTables(db, schema);
  if (!tables.includes('faults')) throw new Error(`${schema} holds no projection tables`);
  for (const table of tables) {
    const row = sql`(to_jsonb(t) - ${sql.val([...(options.exclude ?? [])])}::text[])::text`;
    const { rows } = await sql<{ rows: number; md5: string }>`
      select count(*)::int as rows, md5(coalesce(string_agg(${row}, E'\n' order by ${row}), '')) as md5
        from ${sql.table(`${schema}.${table}`)} t`.execute(db);
    digest[table] = rows[0]!;
  }
  return digest;
}
