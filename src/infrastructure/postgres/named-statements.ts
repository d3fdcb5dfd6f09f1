// Statements PostgreSQL should parse and plan once per connection, not on
// every call (issue 20): a statement sent without a name is parsed and
// planned anew each time, and recall's subject statement (a dozen subqueries
// building one JSON row) took 0.7-1.0 ms to plan for 0.2 ms to run. A
// statement registered here by its text is sent as a named prepared
// statement (pg keeps, per connection, which names it has parsed), so the
// server keeps its plan (after five runs a generic one, when that costs no
// more). Only registered texts: naming every statement would leave one
// prepared statement per distinct text on every connection for its life.
import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

const names = new Map<string, string>();

/** Registers `sql` to run as a named prepared statement wherever namedStatementsPool runs it. Returns its name. */
export function prepareStatement(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    // By content: the same text is the same statement on every connection, another text another name.
    name = `ml_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;
    names.set(sql, name);
  }
  return name;
}

/** The name `sql` was registered under, if it was. */
export const statementName = (sql: string): string | undefined => names.get(sql);

/** `pool` for Kysely, sending registered statements by name. */
export function namedStatementsPool(pool: pg.Pool): PostgresPool {
  return {
    connect: async () => {
      const client = await pool.connect();
      const named: PostgresPoolClient = {
        query: ((sqlOrCursor: string | object, parameters?: ReadonlyArray<unknown>) => {
          if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as pg.Submittable);
          const name = names.get(sqlOrCursor);
          const values = parameters ? [...parameters] : [];
          return (name ? client.query({ name, text: sqlOrCursor, values }) : client.query(sqlOrCursor, values)) as Promise<
            PostgresQueryResult<unknown>
          >;
        }) as PostgresPoolClient['query'],
        release: (destroy?: boolean) => client.release(destroy),
      };
      return named;
    },
    end: () => pool.end(),
  };
}
