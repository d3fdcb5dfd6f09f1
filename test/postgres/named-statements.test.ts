// Statements registered by their text run as named prepared statements on
// the projections' connections (src/infrastructure/postgres/named-statements.ts):
// parsed and planned once per connection. Recall's subject statement is one
// (it took PostgreSQL 0.7-1.0 ms to plan for 0.2 ms to run); every other
// statement is sent as before, leaving nothing prepared behind.
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
  // One connection: every statement below runs on the connection whose prepared statements are listed.
  projections = await openProjectionDatabase(database.url, { poolSize: 1 });
});
afterAll(async () => {
  await projections?.close();
  await database?.drop();
});

const prepared = async () =>
  (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by name`.execute(projections.db))
    .rows;

describe('named statements', () => {
  it('run a registered text as a prepared statement with the same answer, once per connection; others leave nothing prepared', async () => {
    const text = 'select $1::int + $2::int as sum, current_setting($3) as setting';
    const run = (a: number, b: number) =>
      projections.db.executeQuery<{ sum: number; setting: string }>(CompiledQuery.raw(text, [a, b, 'application_name']));
    expect((await run(1, 2)).rows).toEqual([{ sum: 3, setting: 'memledger-projections' }]);
    expect((await prepared()).map((p) => p.statement)).not.toContain(text);

    const name = prepareStatement(text);
    expect(prepareStatement(text)).toBe(name);
    expect(statementName(text)).toBe(name);
    expect(prepareStatement(`${text} `)).not.toBe(name);
    for (let i = 0; i < 3; i++) expect((await run(i, 10)).rows).toEqual([{ sum: i + 10, setting: 'memledger-projections' }]);
    expect((await prepared()).filter((p) => p.statement === text).map((p) => p.name)).toEqual([name]);
    // An unregistered statement still leaves nothing.
    await projections.db.executeQuery(CompiledQuery.raw('select 42 as answer', []));
    expect((await prepared()).map((p) => p.statement)).not.toContain('select 42 as answer');
  });

  it("recall's subject statement is one of them", async () => {
    const store = await openPostgresEventStore(database.url);
    try {
      await catchUpProjections(store, projections.db); // the read models' schemas, empty
    } finally {
      await store.close();
    }
    const view = await readSubjectView(projections.db, 'acme', 'nobody-yet');
    expect(view.clock).toBeNull();
    const statements = await prepared();
    const subjectStatement = statements.find((p) => p.statement.includes('input_epoch') && p.statement.includes('high_water_mark'));
    expect(subjectStatement).toBeDefined();
    expect(statementName(subjectStatement!.statement)).toBe(subjectStatement!.name);
  });
});
