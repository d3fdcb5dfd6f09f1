// Statements registered by their text run as named prepared statements on
// the projections' connections (src/infrastructure/postgres/named-statements.ts):
// parsed and planned once per connection, on connections of their own that
// keep a generic plan. Recall's subject statement is one (it took PostgreSQL
// 0.7-1.0 ms to plan for 0.2 ms to run, and left to choose the server planned
// it anew on every call); every other statement is sent as before, leaving
// nothing prepared behind, with the server's default plan choice.
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareStatement, statementName } from '../../src/infrastructure/postgres/named-statements.js';
import { openPostgresEventStore } from '../../src/infrastructure/event-store/postgres/open.js';
import { catchUpProjections, openProjectionDatabase, type ProjectionDatabase } from '../../src/projections/index.js';
import { readSubjectView } from '../../src/queries/recall/subject-view.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let database: TestDatabase;
let projections: ProjectionDatabase;
beforeAll(async () => {
  database = await createTestDatabase('named_statements');
  // One connection in each pool: the registered statements below run on the connection whose prepared statements they list.
  projections = await openProjectionDatabase(database.url, { poolSize: 1 });
});
afterAll(async () => {
  await projections?.close();
  await database?.drop();
});

// Registered: it runs where the registered statements run, and lists that connection's prepared statements.
const LIST = 'select name, statement, generic_plans, custom_plans from pg_prepared_statements where $1::int = 1 order by name';
prepareStatement(LIST);
const prepared = async () =>
  (
    await projections.db.executeQuery<{ name: string; statement: string; generic_plans: string; custom_plans: string }>(
      CompiledQuery.raw(LIST, [1]),
    )
  ).rows;
const planMode = async () =>
  (await sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`.execute(projections.db)).rows[0]!.mode;

describe('named statements', () => {
  it('run a registered text as a prepared statement with the same answer, once per connection; others leave nothing prepared', async () => {
    const text = 'select $1::int + $2::int as sum, current_setting($3) as setting';
    const run = (a: number, b: number) =>
      projections.db.executeQuery<{ sum: number; setting: string }>(CompiledQuery.raw(text, [a, b, 'plan_cache_mode']));
    expect((await run(1, 2)).rows).toEqual([{ sum: 3, setting: 'auto' }]);
    expect((await prepared()).map((p) => p.statement)).not.toContain(text);

    const name = prepareStatement(text);
    expect(prepareStatement(text)).toBe(name);
    expect(statementName(text)).toBe(name);
    expect(prepareStatement(`${text} `)).not.toBe(name);
    // On a connection that keeps the generic plan from the first call on (the server's choice would plan five custom ones first).
    for (let i = 0; i < 3; i++) expect((await run(i, 10)).rows).toEqual([{ sum: i + 10, setting: 'force_generic_plan' }]);
    const mine = (await prepared()).filter((p) => p.statement === text);
    expect(mine.map((p) => [p.name, Number(p.generic_plans), Number(p.custom_plans)])).toEqual([[name, 3, 0]]);
    // Everything else keeps the server's default.
    expect(await planMode()).toBe('auto');
    // An unregistered statement still leaves nothing.
    await projections.db.executeQuery(CompiledQuery.raw('select 42 as answer', []));
    expect((await prepared()).map((p) => p.statement)).not.toContain('select 42 as answer');
  });

  it('in a transaction a registered statement runs on its connection, seeing its writes', async () => {
    const text = 'select count(*)::int as n, current_setting($1) as setting from named_statements_probe';
    prepareStatement(text);
    await sql`create table named_statements_probe (id int)`.execute(projections.db);
    const seen = await projections.db.transaction().execute(async (trx) => {
      await sql`insert into named_statements_probe values (1)`.execute(trx);
      return (await trx.executeQuery<{ n: number; setting: string }>(CompiledQuery.raw(text, ['plan_cache_mode']))).rows;
    });
    expect(seen).toEqual([{ n: 1, setting: 'auto' }]);
    expect((await projections.db.executeQuery(CompiledQuery.raw(text, ['plan_cache_mode']))).rows).toEqual([
      { n: 1, setting: 'force_generic_plan' },
    ]);
  });

  it("recall's subject statement is one of them", async () => {
    const store = await openPostgresEventStore(database.url);
    try {
      await catchUpProjections(store, projections.db); // the read models' schemas, empty
    } finally {
      await store.close();
    }
    for (let i = 0; i < 2; i++) expect((await readSubjectView(projections.db, 'acme', 'nobody-yet')).clock).toBeNull();
    const statements = await prepared();
    const subjectStatement = statements.find((p) => p.statement.includes('input_epoch') && p.statement.includes('high_water_mark'));
    expect(subjectStatement).toBeDefined();
    expect(statementName(subjectStatement!.statement)).toBe(subjectStatement!.name);
    expect([Number(subjectStatement!.generic_plans), Number(subjectStatement!.custom_plans)]).toEqual([2, 0]);
  });
});
