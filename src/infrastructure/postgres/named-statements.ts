// Statements PostgreSQL should parse and plan once per connection, not on
// every call (issue 20): a statement sent without a name is parsed and
// planned anew each time, and recall's subject statement (a dozen subqueries
// building one JSON row) took 0.7-1.0 ms to plan for 0.2 ms to run. A
// statement registered here by its text is sent as a named prepared
// statement (pg keeps, per connection, which names it has parsed), on a
// connection of its own pool whose plan_cache_mode is force_generic_plan
// (plannedOncePool): left to choose, the server kept planning a custom plan
// on every call whenever its estimate for the generic one came out higher
// (at 50 memories a subject it did, at 1,000 it did not). Its statements are
// lookups by key, whose plan does not depend on the values. Only registered
// texts: naming every statement would leave one prepared statement per
// distinct text on every connection for its life, and a generic plan where
// the values matter.
import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { Pool } from './pool.js';

const names = new Map<string, string>();

/**
 * A pool whose connections keep a prepared statement's generic plan from its
 * first run on (plan_cache_mode=force_generic_plan): for named statements
 * that look rows up by key (recall's subject statement, the grouped append),
 * whose best plan does not depend on the values.
 */
export const plannedOncePool = (config: pg.PoolConfig): Pool => new Pool({ ...config, options: '-c plan_cache_mode=force_generic_plan' });

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

/**
 * `pool` for Kysely, sending registered statements by name. A connection is
 * taken when its first statement comes: from `plannedOnce` (a
 * plannedOncePool) when that statement is a registered one run alone,
 * otherwise from `pool`; a transaction (its `begin` first) stays on `pool`,
 * registered statements in it included.
 */
export function namedStatementsPool(pool: pg.Pool, plannedOnce: pg.Pool): PostgresPool {
  return {
    connect: () => {
      let taken: Promise<pg.PoolClient> | undefined;
      const named: PostgresPoolClient = {
        query: (async (sqlOrCursor: string | object, parameters?: ReadonlyArray<unknown>) => {
          // Kysely streams through a cursor only when its dialect is given one; this one is not.
          if (typeof sqlOrCursor !== 'string') throw new Error('the projections database runs no cursor');
          const name = names.get(sqlOrCursor);
          taken ??= (name !== undefined ? plannedOnce : pool).connect();
          const client = await taken;
          const values = parameters ? [...parameters] : [];
          return (await (name
            ? client.query({ name, text: sqlOrCursor, values })
            : client.query(sqlOrCursor, values))) as PostgresQueryResult<unknown>;
        }) as PostgresPoolClient['query'],
        release: (destroy?: boolean) => {
          void taken?.then(
            (client) => client.release(destroy),
            () => undefined,
          );
        },
      };
      return Promise.resolve(named);
    },
    end: async () => {
      await Promise.all([pool.end(), plannedOnce.end()]);
    },
  };
}
