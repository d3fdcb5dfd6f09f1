// recall and asOf read the memory projection's active schema in one
// statement, remembering its name; a rebuild that swaps schemas under them
// (dropping the old one, or leaving it retired while a projector holds it)
// sends them to the new one, never to stale tables.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordMemory } from '../../src/commands/record.js';
import { asOf } from '../../src/queries/as-of.js';
import { recall } from '../../src/queries/recall/recall.js';
import { memoryProjection } from '../../src/projections/memory/definition.js';
import { ownerKey } from '../../src/projections/runtime/lock-keys.js';
import { rebuildProjection } from '../../src/projections/runtime/rebuild.js';
import { activeSchema } from '../../src/projections/runtime/registry.js';
import { ctx, ok, openReadWorld, type ReadWorld } from './support/read-world.js';

let world: ReadWorld;
beforeAll(async () => {
  world = await openReadWorld('queries_schema');
});
afterAll(async () => world?.close());

const fact = (key: string) => ({ kind: 'profile', key, value: { type: 'text', text: key }, source: { type: 'user_assertion' } });
const keysRecalled = async () =>
  (await recall(world.read, { tenant: 'acme', subject: 'sw' })).items.map((i) => (i.type === 'memory' ? i.key : '')).sort();
const keysBelieved = async () =>
  (await asOf(world.read, { tenant: 'acme', subject: 'sw', systemTime: new Date(Date.now() + 60_000).toISOString() })).beliefs
    .map((b) => b.key)
    .sort();

describe('the active schema under a rebuild', () => {
  it('follows a swap whose old schema was dropped', async () => {
    ok(await recordMemory(world.t.ledger, ctx('sw'), fact('a.one')));
    await world.catchUp(ctx('sw'));
    expect(await keysRecalled()).toEqual(['a.one']);
    const before = (await activeSchema(world.read.projections, 'memory'))!.schema_name;
    const rebuilt = await rebuildProjection(world.read.projections, world.read.eventStore, memoryProjection);
    expect(rebuilt.dropped).toContain(before);
    ok(await recordMemory(world.t.ledger, ctx('sw'), fact('a.two')));
    await world.catchUp(ctx('sw'));
    expect(await keysRecalled()).toEqual(['a.one', 'a.two']);
    expect(await keysBelieved()).toEqual(['a.one', 'a.two']);
  });

  it('follows a swap whose old schema is kept, retired, while a projector still holds it', async () => {
    await keysRecalled();
    await keysBelieved();
    const old = (await activeSchema(world.read.projections, 'memory'))!.schema_name;
    const holder = new pg.Client({ connectionString: world.t.database.url });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock($1)', [ownerKey(old).toString()]);
      const rebuilt = await rebuildProjection(world.read.projections, world.read.eventStore, memoryProjection);
      expect(rebuilt.dropped).not.toContain(old);
      ok(await recordMemory(world.t.ledger, ctx('sw'), fact('a.three')));
      await world.catchUp(ctx('sw'));
      // The retired schema still exists and lacks a.three: the answer must come from the new one.
      expect(await keysRecalled()).toEqual(['a.one', 'a.three', 'a.two']);
      expect(await keysBelieved()).toEqual(['a.one', 'a.three', 'a.two']);
    } finally {
      await holder.end();
    }
  });
});
