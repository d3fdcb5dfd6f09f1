// Set-based writes: a batch's rows go to PostgreSQL as one array per column
// and come out of unnest(), one statement and one round trip per table
// however many rows (and no limit on bind parameters).
import { sql, type RawBuilder } from 'kysely';

export type PgType = 'text' | 'int4' | 'int8' | 'float8' | 'bool' | 'jsonb' | 'timestamptz' | 'uuid';

/** The PostgreSQL type of every column of a row type. */
export type ColumnTypes<R> = { readonly [K in keyof R]-?: PgType };

/** `(select * from unnest($1::t1[], …) as u(c1, …))`: the rows as a relation, columns in the order of `types`. */
export function unnestRows<R>(rows: readonly R[], types: ColumnTypes<R>): RawBuilder<R> {
  const columns = Object.keys(types) as (keyof R & string)[];
  const arrays = columns.map((column) => sql`${sql.val(rows.map((row) => row[column] ?? null))}::${sql.raw(types[column])}[]`);
  return sql<R>`(select * from unnest(${sql.join(arrays)}) as u(${sql.join(columns.map((c) => sql.id(c)))}))`;
}

export function columnsOf<R>(types: ColumnTypes<R>): (keyof R & string)[] {
  return Object.keys(types) as (keyof R & string)[];
}

/** `= any($1::text[])` as the right-hand side of a where: a list of any length in one parameter (an `in` list takes one per item). */
export function anyText(values: Iterable<string>): RawBuilder<string> {
  return sql<string>`any(${sql.val([...values])}::text[])`;
}
