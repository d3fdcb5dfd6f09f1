// A warm recall (issue 16, speed): the subject's opened corpus is reused at
// the same revision — no version read again, no memory opened again — and
// stays exact: a write after a cached recall is seen, a forgotten memory or
// one whose key was destroyed is never served, and every hard filter (scopes,
// sensitivity, expiry, kind, key) judges each recall anew. Keys are counted
// through the real PostgreSQL key store, wrapped: a memory is opened only
// with the key recall asks it for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetMemory } from '../../src/commands/forget.js';
import { recordMemory } from '../../src/commands/record.js';
import { readSideErasureChecks } from '../../src/queries/erasure/index.js';
import { INDEX_CACHE_PATH, retrievalIndexCheck } from '../../src/queries/erasure/index-cache-check.js';
import type { RecallItem } from '../../src/queries/recall/items.js';
import type { ErasureTarget } from '../../src/reads/erasure/verification.js';
import { openPassing } from '../../src/queries/recall/opening.js';
import { recall, type RecallReadSide } from '../../src/queries/recall/recall.js';
import { RetrievalIndexCache } from '../../src/queries/recall/retrieval/index-cache.js';
import { countingKeys } from './support/counting-keys.js';
import { ctx, ok, openReadWorld, type ReadWorld } from './support/read-world.js';

let world: ReadWorld;
beforeAll(async () => {
  world = await openReadWorld('queries_recall_warm');
});
afterAll(async () => world?.close());

function readSide(): {
  read: RecallReadSide & { retrievalIndexes: RetrievalIndexCache };
  asked: () => number;
  subjectAsked: () => number;
} {
  const { store, asked, subjectAsked } = countingKeys(world.read.keyStore);
  return { read: { ...world.read, keyStore: store, retrievalIndexes: new RetrievalIndexCache() }, asked, subjectAsked };
}

const said = (key: string, content: string, extra: Record<string, unknown> = {}) => ({
  kind: 'episodic',
  key,
  value: { type: 'text', text: content },
  content,
  source: { type: 'user_assertion', refs: [`msg://${key}`] },
  ...extra,
});
const record = async (subject: string, entry: unknown) => ok(await recordMemory(world.t.ledger, ctx(subject), entry)).memoryId;
const shown = (items: readonly RecallItem[]) =>
  items.flatMap((i) => (i.type === 'memory' ? [i.memoryId] : i.type === 'conflict' ? i.sides.map((s) => s.memoryId) : []));

describe('a warm recall', () => {
  it('opens no memory again: it asks only for the keys of what it serves, and after a write for the new memory too', async () => {
    const s = 'w-count';
    for (let i = 0; i < 40; i++) await record(s, said(`chat.t${i}`, `Turn ${i}: we spoke about the garden and week ${i}.`));
    await world.catchUp(ctx(s));
    const { read, asked, subjectAsked } = readSide();
    const ask = (query: string) => recall(read, { tenant: 'acme', subject: s, query, topK: 3 });

    const cold = await ask('garden week');
    expect(cold.items).toHaveLength(3);
    // The recording seals the question's shares under the served memories' keys as this recall read them (issue 20): none read again.
    expect(asked()).toBe(40); // every passing memory opened once; nothing reused yet, nothing to check
    expect(subjectAsked()).toBe(0); // the subject's share: its key read with the (empty) check, not on its own
    const before = asked();
    const warm = await ask('garden week');
    expect(warm.items).toEqual(cold.items);
    expect(asked() - before).toBe(3); // the three served, checked (and their keys seal the shares); none opened
    expect(subjectAsked()).toBe(0); // the subject's key came with theirs, in the same round trip

    const fresh = await record(s, said('chat.new', 'The courier Zephyrine left the parcel at the back door.'));
    await world.catchUp(ctx(s));
    const mark = asked();
    const after = await ask('where did Zephyrine leave the parcel');
    expect(after.items[0]).toMatchObject({ type: 'memory', memoryId: fresh });
    // Only the new memory is opened; the served others are checked.
    expect(asked() - mark).toBeLessThanOrEqual(1 + after.items.length);
    expect(asked() - mark).toBeGreaterThanOrEqual(1);
  });

  it('never serves a memory whose key an erasure destroyed before its tombstone reached the projection', async () => {
    const s = 'w-window';
    const secret = await record(s, said('chat.t1', 'The gate code is heron-5521.'));
    await record(s, said('chat.t2', 'The gate opens at seven.'));
    await world.catchUp(ctx(s));
    const { read } = readSide();
    const ask = () => recall(read, { tenant: 'acme', subject: s, query: 'gate code', topK: 5 });
    expect(shown((await ask()).items)).toContain(secret);
    // The erasure's first step alone: keys destroyed, no tombstone yet (the subject's revision has not moved).
    await world.t.ledger.keyStore.forgetMemories(ctx(s), [secret]);
    const answer = await ask();
    expect(shown(answer.items)).not.toContain(secret);
    expect(JSON.stringify(answer)).not.toContain('heron-5521');
    expect(answer.excluded.unreadable).toBe(1);
    expect([...read.retrievalIndexes.corpora.corpora()].flatMap(({ corpus }) => [...corpus.opened.keys()])).not.toContain(secret);
  });

  it('without a query, proves the served keys live by the subject memory key epoch: no key row read, until a key is destroyed', async () => {
    const s = 'w-epoch';
    const secret = await record(s, said('chat.t1', 'The locker code is kestrel-7730.'));
    for (let i = 2; i <= 6; i++) await record(s, said(`chat.t${i}`, `Turn ${i}: the locker is on floor ${i}.`));
    await world.catchUp(ctx(s));
    const { read, asked } = readSide();
    const ask = () => recall(read, { tenant: 'acme', subject: s });
    const cold = await ask();
    expect(shown(cold.items)).toContain(secret);
    expect(asked()).toBe(6); // each memory opened once
    const warm = await ask();
    expect(warm.items).toEqual(cold.items);
    expect(asked()).toBe(6); // the six served, proven live by one epoch row: no key read again
    // Another process's erasure, its first step alone: the key destroyed, no tombstone yet.
    await world.t.ledger.keyStore.forgetMemories(ctx(s), [secret]);
    const after = await ask();
    expect(shown(after.items)).not.toContain(secret);
    expect(JSON.stringify(after)).not.toContain('kestrel-7730');
    expect(after.excluded.unreadable).toBe(1);
    expect(asked()).toBeGreaterThan(6); // the epoch moved: every served key read again
  });

  it('forget after a cached recall: gone from the next answer, the corpus and the indexes, and the erasure check says so', async () => {
    const s = 'w-forget';
    const phone = await record(s, said('chat.t1', 'Call me on the number ending 8830 after six.'));
    await record(s, said('chat.t2', 'Evenings after six suit me for calls.'));
    await world.catchUp(ctx(s));
    const { read } = readSide();
    const ask = () => recall(read, { tenant: 'acme', subject: s, query: 'when to call', topK: 5 });
    expect(shown((await ask()).items)).toContain(phone);
    const held = () => [...read.retrievalIndexes.corpora.corpora()].some(({ corpus }) => corpus.opened.has(phone));
    expect(held()).toBe(true);
    const receipt = ok(
      await forgetMemory(world.t.ledger, ctx(s), phone, 'asked to forget', {
        checks: readSideErasureChecks(read as never),
        beforeVerify: () => world.catchUp(ctx(s)),
      }),
    );
    expect(receipt.verification!.checks.find((c) => c.path === INDEX_CACHE_PATH)).toMatchObject({ status: 'passed' });
    expect(held()).toBe(false);
    const after = await ask();
    expect(shown(after.items)).not.toContain(phone);
    expect(JSON.stringify(after)).not.toContain('8830');
  });

  it('judges every hard filter anew at the same revision: scopes, sensitivity, expiry, kind and key', async () => {
    const s = 'w-filters';
    const eu = await record(s, said('pref.eu', 'Ship the parcel to the Lisbon depot.', { scopes: { project: 'eu' } }));
    const us = await record(s, said('pref.us', 'Ship the parcel to the Boston depot.', { scopes: { project: 'us' } }));
    const secret = await record(s, said('pref.secret', 'Ship the parcel with the restricted courier.', { sensitivity: 'restricted' }));
    const soon = await record(s, said('pref.soon', 'Ship the parcel before the holiday.', { expiresAt: '2026-07-10T00:00:00Z' }));
    const rule = await record(s, {
      ...said('policy.parcel', 'Every parcel ships insured.'),
      kind: 'constraint',
      value: { type: 'boolean', value: true },
    });
    await world.catchUp(ctx(s));
    const { read, asked } = readSide();
    const ask = (extra: Record<string, unknown>) =>
      recall(read, { tenant: 'acme', subject: s, query: 'ship the parcel', topK: 10, now: '2026-07-02T00:00:00Z', ...extra });

    const all = shown((await ask({ scopes: { project: 'eu' }, maxSensitivity: 'restricted' })).items);
    expect(all).toEqual(expect.arrayContaining([eu, secret, soon, rule]));
    expect(all).not.toContain(us);
    const warmFrom = asked();
    const us2 = shown((await ask({ scopes: { project: 'us' } })).items);
    expect(us2).toEqual(expect.arrayContaining([us, soon, rule]));
    expect(us2).not.toContain(eu);
    expect(us2).not.toContain(secret);
    const later = await ask({ scopes: { project: 'eu' }, maxSensitivity: 'restricted', now: '2026-07-11T00:00:00Z' });
    expect(shown(later.items)).not.toContain(soon);
    expect(later.excluded.expired).toBe(1);
    expect(shown((await ask({ scopes: { project: 'eu' }, kind: 'constraint' })).items)).toEqual([rule]);
    expect(shown((await ask({ scopes: { project: 'eu' }, key: 'pref.*' })).items)).not.toContain(rule);
    // All of it from memory: the keys asked for are those of what was served (us was opened for its first reader).
    expect(asked() - warmFrom).toBeLessThanOrEqual(2 * (1 + 4 + 3 + 1 + 3));
  });
});

describe('recall without a query, warm', () => {
  const cold = (extra: Record<string, unknown>) => recall(world.read, { tenant: 'acme', ...extra } as never);

  it('takes its items in standing order from the corpus at the same revision, and answers as a cold recall for every filter', async () => {
    const s = 'w-standing';
    const eu = await record(s, said('pref.eu', 'Ship the parcel to the Lisbon depot.', { scopes: { project: 'eu' } }));
    await record(s, said('pref.us', 'Ship the parcel to the Boston depot.', { scopes: { project: 'us' } }));
    const soon = await record(s, said('pref.soon', 'Ship the parcel before the holiday.', { expiresAt: '2026-07-10T00:00:00Z' }));
    await record(s, said('pref.secret', 'Ship the parcel with the restricted courier.', { sensitivity: 'restricted' }));
    await world.catchUp(ctx(s));
    const { read } = readSide();
    const asks: Array<Record<string, unknown>> = [
      { scopes: { project: 'eu' }, now: '2026-07-02T00:00:00Z' },
      { scopes: { project: 'eu' }, now: '2026-07-03T00:00:00Z' },
      { scopes: { project: 'us' }, maxSensitivity: 'restricted', now: '2026-07-02T00:00:00Z' },
      { scopes: { project: 'eu' }, now: '2026-07-11T00:00:00Z' },
      { scopes: { project: 'eu' }, budget: 12, now: '2026-07-02T00:00:00Z' },
    ];
    const items = async (ask: Record<string, unknown>, from: RecallReadSide | 'cold') =>
      (from === 'cold' ? await cold({ subject: s, ...ask }) : await recall(from, { tenant: 'acme', subject: s, ...ask } as never)).items;
    for (const ask of asks) expect(await items(ask, read)).toEqual(await items(ask, 'cold'));
    expect(shown(await items(asks[0]!, read))).toEqual(expect.arrayContaining([eu, soon]));
    expect(shown(await items(asks[3]!, read))).not.toContain(soon);

    // The same reader again: the very items made before (provenance objects and all), not made anew.
    const first = await items(asks[0]!, read);
    const again = await items(asks[0]!, read);
    expect(again).toEqual(first);
    const provenanceOf = (list: readonly RecallItem[]) => list.flatMap((i) => (i.type === 'memory' ? [i.provenance] : []));
    expect(provenanceOf(again).length).toBeGreaterThan(0);
    provenanceOf(again).forEach((p, i) => expect(p).toBe(provenanceOf(first)[i]));

    // A write moves the revision: the new memory is in the next standing order.
    const late = await record(s, said('pref.late', 'Ship the parcel on Monday.', { scopes: { project: 'eu' } }));
    await world.catchUp(ctx(s));
    expect(shown(await items(asks[0]!, read))).toContain(late);
    expect(await items(asks[0]!, read)).toEqual(await items(asks[0]!, 'cold'));
  });

  it('opens nothing and copies nothing when what passes is what the corpus holds: its opened map as it is', async () => {
    const s = 'w-same-map';
    for (let i = 0; i < 5; i++) await record(s, said(`chat.m${i}`, `Message ${i} about the boat.`));
    await world.catchUp(ctx(s));
    const { read, asked } = readSide();
    await recall(read, { tenant: 'acme', subject: s, query: 'boat', topK: 3 });
    const corpus = read.retrievalIndexes.corpora.current({ tenant: 'acme', subject: s })!;
    const ref = { tenant: 'acme', subject: s };
    const before = asked();
    const all = await openPassing(read.keyStore, ref, corpus.versions, corpus.opened);
    expect(all.opened).toBe(corpus.opened);
    expect(corpus.versions.every((v) => all.reused.has(v.memory_id))).toBe(true);
    // One left out by a filter: a map of the others, each the corpus's, still nothing opened.
    const some = await openPassing(read.keyStore, ref, corpus.versions.slice(1), corpus.opened);
    expect(some.opened).not.toBe(corpus.opened);
    expect([...some.opened.values()]).toEqual(corpus.versions.slice(1).map((v) => corpus.opened.get(v.memory_id)));
    expect(asked()).toBe(before);
  });

  it('the erasure check searches what a corpus keeps of what readers were shown', async () => {
    const s = 'w-standing-check';
    await record(s, said('chat.t1', 'The gate code is osprey-4412.'));
    await world.catchUp(ctx(s));
    const { read } = readSide();
    await recall(read, { tenant: 'acme', subject: s });
    const [held] = [...read.retrievalIndexes.corpora.corpora()].filter((c) => c.subject === s);
    expect(held!.corpus.standing.size).toBe(1);
    // What an erasure of another subject's memory looks for, planted in this corpus's standing order only.
    const check = retrievalIndexCheck(read as never);
    const other = { tenant: 'acme', subject: 'w-standing-other' };
    const planted = { ...held!.corpus.standing.values().next().value![0]!, text: 'stored nowhere else: heron-9921' } as RecallItem;
    held!.corpus.standing.set('planted', [planted]);
    const target = {
      ref: other,
      memoryIds: [],
      needles: { plaintexts: ['heron-9921'], sha256: [], keyedHashes: [], plaintextKnown: true },
    } as unknown as ErasureTarget;
    expect(await check.run(target)).toMatchObject({ status: 'failed' });
    held!.corpus.standing.delete('planted');
    expect(await check.run(target)).toMatchObject({ status: 'passed' });
    // Likewise the summary entries kept for a reader.
    held!.corpus.shown.set('planted', [
      { entry: { type: 'open_item', index: 0, openItem: { text: 'heron-9921' }, sources: [] }, item: planted, rank: {} } as never,
    ]);
    expect(await check.run(target)).toMatchObject({ status: 'failed' });
    held!.corpus.shown.delete('planted');
  });
});
