// A warm recall from a published summary (issue 20, speed): the opened
// output and its entries' renderings are kept with the subject's opened
// corpus and reused while the artifact, its envelope and its key are the
// same; the key is looked up on every recall (a destroyed one serves
// nothing from memory), another artifact is opened anew, and the erasure
// check searches what is kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsolidation } from '../../src/commands/consolidation/run.js';
import type { ConsolidationServices } from '../../src/commands/consolidation/services.js';
import { forgetMemory } from '../../src/commands/forget.js';
import { recordMemory } from '../../src/commands/record.js';
import { readSideErasureChecks } from '../../src/queries/erasure/index.js';
import { INDEX_CACHE_PATH, retrievalIndexCheck } from '../../src/queries/erasure/index-cache-check.js';
import { recall, type RecallAnswer } from '../../src/queries/recall/recall.js';
import { servedMemoryIds } from '../../src/queries/recall/record.js';
import { findRecall, openRecallQuery } from '../../src/reads/recalls/recall-records.js';
import { openSummary, type SummaryOpenings } from '../../src/queries/recall/published-summary.js';
import { RetrievalIndexCache } from '../../src/queries/recall/retrieval/index-cache.js';
import { readSubjectView } from '../../src/queries/recall/subject-view.js';
import type { ErasureTarget } from '../../src/reads/erasure/verification.js';
import { countingKeys } from './support/counting-keys.js';
import { consolidationServices } from './support/services.js';
import { ctx, ok, openReadWorld, type ReadWorld } from './support/read-world.js';

let world: ReadWorld;
let services: ConsolidationServices;
beforeAll(async () => {
  world = await openReadWorld('queries_recall_summary_warm');
  services = await consolidationServices();
});
afterAll(async () => world?.close());

const fact = (key: string, value: string, extra: Record<string, unknown> = {}) => ({
  kind: 'profile',
  key,
  value: { type: 'text', text: value },
  source: { type: 'user_assertion', refs: [`msg://${key}`] },
  ...extra,
});
const record = async (subject: string, entry: unknown) => ok(await recordMemory(world.t.ledger, ctx(subject), entry)).memoryId;
const withCache = () => ({ ...world.read, retrievalIndexes: new RetrievalIndexCache() });
const held = (read: ReturnType<typeof withCache>, subject: string) =>
  [...read.retrievalIndexes.corpora.corpora()].find((c) => c.subject === subject)?.corpus.summary;
const withoutId = ({ recallId: _, ...answer }: RecallAnswer) => answer;

async function summarised(subject: string): Promise<void> {
  await record(subject, fact('notification.preference', 'sms'));
  await record(subject, fact('shipping.city', 'Hangzhou, Binjiang district'));
  await record(subject, fact('language', 'zh', { kind: 'semantic' }));
  expect(ok(await runConsolidation(world.t.ledger, services, ctx(subject))).status).toBe('switched');
  await world.catchUp(ctx(subject));
}

describe('a warm recall from a summary', () => {
  it('answers as a cold one, with and without a query, from the output and renderings opened once', async () => {
    const s = 'sw-same';
    await summarised(s);
    const read = withCache();
    for (const extra of [{}, { query: 'shipping city', topK: 5 }]) {
      const ask = () => recall(read, { tenant: 'acme', subject: s, ...extra });
      const cold = await recall(world.read, { tenant: 'acme', subject: s, ...extra });
      expect(cold.source).toBe('summary');
      const first = await ask();
      const kept = held(read, s);
      expect(kept?.artifactId).toBe(cold.alias!.artifactId);
      expect(kept!.rendered.size).toBeGreaterThan(0);
      // With a query, the entries' retrieval documents too: the same objects next time (the index sees nothing changed).
      const documents = [...kept!.documents.values()].map((d) => d.document);
      expect(documents.length).toBe('query' in extra ? kept!.rendered.size : 0);
      const warm = await ask();
      expect(held(read, s)).toBe(kept);
      expect([...kept!.documents.values()].map((d) => d.document)).toEqual(documents);
      for (const [i, d] of [...kept!.documents.values()].entries()) expect(d.document).toBe(documents[i]);
      expect(withoutId(warm)).toEqual(withoutId(cold));
      expect(withoutId(first)).toEqual(withoutId(cold));
    }
  });

  it("seals a question's shares under keys read in one round trip, its claims' sources with the served memories'", async () => {
    const s = 'sw-shares';
    await summarised(s);
    const { store, roundTrips } = countingKeys(world.read.keyStore);
    const read = { ...withCache(), keyStore: store };
    const ask = () => recall(read, { tenant: 'acme', subject: s, query: 'shipping city', topK: 5 });
    await ask();
    const before = roundTrips();
    const warm = await ask();
    expect(warm.source).toBe('summary');
    const claim = warm.items.find((i) => i.type === 'claim');
    expect(claim?.type).toBe('claim');
    // Before: the check read the served memories' keys, then the sealing those of the claims' sources (and the subject's) again.
    expect(roundTrips() - before).toBe(1);
    // Every memory the record names has its share, and the question opens from them.
    const recorded = (await findRecall(world.read.eventStore, ctx(s), warm.recallId))!.recall;
    const query = recorded.parameters.query!;
    expect(query.shares.flatMap((x) => (x.memoryId ? [x.memoryId] : [])).sort()).toEqual(servedMemoryIds(recorded).sort());
    expect(servedMemoryIds(recorded)).toEqual(
      expect.arrayContaining(claim!.type === 'claim' ? claim!.provenance.derivedFrom.map((d) => d.memoryId) : []),
    );
    expect(await openRecallQuery(world.read.keyStore, ctx(s), warm.recallId, query)).toBe('shipping city');
  });

  it('tokenizes each text once: concurrent cold recalls share the counts, a warm recall counts nothing', async () => {
    const s = 'sw-tokens';
    await summarised(s);
    let counted: string[] = [];
    const read = {
      ...withCache(),
      countTokens: (text: string) => (counted.push(text), world.read.countTokens(text)),
    };
    const ask = () => recall(read, { tenant: 'acme', subject: s });
    const answers = await Promise.all([ask(), ask(), ask(), ask()]);
    expect(answers.every((a) => a.source === 'summary')).toBe(true);
    // Conflict items are counted per recall (they are few and change with every side); this subject has none.
    const served = answers[0]!.items.filter((i) => i.type !== 'conflict').map((i) => i.text);
    expect([...counted].sort()).toEqual([...served].sort());
    counted = [];
    expect(withoutId(await ask())).toEqual(withoutId(answers[0]!));
    expect(counted).toEqual([]);
  });

  it('opens a newly published summary once for concurrent recalls, each still checking its key', async () => {
    const s = 'sw-flight';
    await summarised(s);
    const view = await readSubjectView(world.read.projections, 'acme', s);
    const { artifactId, artifact } = view.alias!;
    const openings: SummaryOpenings = new Map();
    const open = () => openSummary(world.read.keyStore, ctx(s), artifactId, artifact!.output!, artifact!.outputHash, undefined, openings);
    const [first, ...others] = await Promise.all([open(), open(), open(), open()]);
    expect(first?.output.claims.length).toBeGreaterThan(0);
    for (const other of others) expect(other).toBe(first);
    expect(openings.size).toBe(0);
    // Apart, each opening is its own; with the key destroyed, neither a held nor a concurrent one is served.
    expect(await open()).not.toBe(first);
    await world.t.ledger.keyStore.forgetMemories(ctx(s), first!.output.claims[0]!.derivedFrom);
    expect(
      await openSummary(world.read.keyStore, ctx(s), artifactId, artifact!.output!, artifact!.outputHash, first, openings),
    ).toBeUndefined();
    expect(await Promise.all([open(), open()])).toEqual([undefined, undefined]);
  });

  it('serves nothing of the summary once its key is destroyed, before any tombstone reaches the projection', async () => {
    const s = 'sw-key';
    await summarised(s);
    const read = withCache();
    const first = await recall(read, { tenant: 'acme', subject: s });
    expect(first.source).toBe('summary');
    const city = first.items.find((i) => i.type === 'claim' && i.key === 'shipping.city');
    expect(city?.type).toBe('claim');
    // The erasure's first step alone: the memory's key and the keys of the artifacts deriving from it are destroyed.
    await world.t.ledger.keyStore.forgetMemories(ctx(s), [city!.type === 'claim' ? city!.provenance.derivedFrom[0]!.memoryId : '']);
    const after = await recall(read, { tenant: 'acme', subject: s });
    expect(after).toMatchObject({ source: 'raw', reason: 'unreadable' });
    expect(JSON.stringify(after)).not.toContain('Binjiang');
  });

  it('opens a newly published artifact anew, never serving the old one from memory', async () => {
    const s = 'sw-next';
    await summarised(s);
    const read = withCache();
    const first = await recall(read, { tenant: 'acme', subject: s });
    const before = held(read, s)!;
    await record(s, fact('shipping.city', 'Ningbo, Yinzhou district'));
    ok(await runConsolidation(world.t.ledger, services, ctx(s)));
    await world.catchUp(ctx(s));
    const next = await recall(read, { tenant: 'acme', subject: s });
    expect(next.source).toBe('summary');
    expect(next.alias!.artifactId).not.toBe(first.alias!.artifactId);
    expect(held(read, s)!.artifactId).toBe(next.alias!.artifactId);
    expect(held(read, s)).not.toBe(before);
    expect(next.items.filter((i) => i.type === 'claim').every((i) => i.provenance.artifactId === next.alias!.artifactId)).toBe(true);
    expect(withoutId(next)).toEqual(withoutId(await recall(world.read, { tenant: 'acme', subject: s })));
  });

  it("keeps the summary's entries a reader may be shown with the corpus: the same entries for every warm recall, with or without a query", async () => {
    const s = 'sw-entries';
    await summarised(s);
    const read = withCache();
    const corpus = () => [...read.retrievalIndexes.corpora.corpora()].find((c) => c.subject === s)!.corpus;
    await recall(read, { tenant: 'acme', subject: s });
    const kept = [...corpus().shown.values()];
    expect(kept).toHaveLength(1);
    expect(kept[0]!.length).toBeGreaterThan(0);
    const asked = await recall(read, { tenant: 'acme', subject: s, query: 'shipping city', topK: 5 });
    expect(asked.items.some((i) => i.type === 'claim')).toBe(true);
    expect([...corpus().shown.values()]).toEqual(kept);
    expect([...corpus().shown.values()][0]).toBe(kept[0]);
    // Another reader's filters are another view.
    await recall(read, { tenant: 'acme', subject: s, maxSensitivity: 'public' });
    expect(corpus().shown.size).toBe(2);
    expect(withoutId(await recall(read, { tenant: 'acme', subject: s }))).toEqual(
      withoutId(await recall(world.read, { tenant: 'acme', subject: s })),
    );
  });

  it('reads the sealed output once: a warm recall of the same sealing gets its row without the ciphertext, a new one with it', async () => {
    const s = 'sw-ciphertext';
    await summarised(s);
    // The ciphertext lengths of the summary outputs the subject statement returned, in order.
    const seen: number[] = [];
    const projections = world.read.projections.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: (args) => {
        for (const row of args.result.rows as Array<{ alias?: { output?: { ct?: string } | null } | null }>) {
          const ct = row.alias?.output?.ct;
          if (typeof ct === 'string') seen.push(ct.length);
        }
        return Promise.resolve(args.result);
      },
    });
    const read = { ...withCache(), projections };
    const cold = await recall(world.read, { tenant: 'acme', subject: s });
    const first = await recall(read, { tenant: 'acme', subject: s });
    const warm = await recall(read, { tenant: 'acme', subject: s, query: 'shipping city', topK: 5 });
    const again = await recall(read, { tenant: 'acme', subject: s });
    expect(seen).toHaveLength(3);
    expect(seen[0]).toBeGreaterThan(0);
    expect(seen.slice(1)).toEqual([0, 0]);
    expect(withoutId(first)).toEqual(withoutId(cold));
    expect(withoutId(again)).toEqual(withoutId(cold));
    expect(warm.items.length).toBeGreaterThan(0);
    // A new sealing (another consolidation): its ciphertext is read, opened, and served.
    await record(s, fact('shipping.city', 'Ningbo, Yinzhou district'));
    ok(await runConsolidation(world.t.ledger, services, ctx(s)));
    await world.catchUp(ctx(s));
    const next = await recall(read, { tenant: 'acme', subject: s });
    expect(seen.at(-1)).toBeGreaterThan(0);
    expect(next.alias!.artifactId).not.toBe(first.alias!.artifactId);
    expect(withoutId(next)).toEqual(withoutId(await recall(world.read, { tenant: 'acme', subject: s })));
  });

  it('joins the erasure check: the kept summary is searched (even its claims no reader opened), and after a forget it is gone', async () => {
    const s = 'sw-forget';
    await record(s, fact('notification.preference', 'sms'));
    const hint = await record(s, fact('account.pin_hint', 'the heron by the old mill', { sensitivity: 'confidential' }));
    ok(await runConsolidation(world.t.ledger, services, ctx(s)));
    await world.catchUp(ctx(s));
    const read = withCache();
    // The default reader does not see the confidential entry: its memory is never opened, but the summary's output holds its claim.
    const answer = await recall(read, { tenant: 'acme', subject: s });
    expect(answer.source).toBe('summary');
    expect(JSON.stringify(answer)).not.toContain('heron');
    expect(JSON.stringify(held(read, s)!.output)).toContain('the heron by the old mill');
    const target = {
      ref: ctx(s),
      memoryIds: [hint],
      needles: { plaintexts: ['the heron by the old mill'], sha256: [], keyedHashes: [], plaintextKnown: true },
    } as unknown as ErasureTarget;
    expect(await retrievalIndexCheck(read as never).run(target)).toMatchObject({ status: 'failed' });

    const receipt = ok(
      await forgetMemory(world.t.ledger, ctx(s), hint, 'asked to forget', {
        checks: readSideErasureChecks(read as never),
        beforeVerify: () => world.catchUp(ctx(s)),
      }),
    );
    expect(receipt.verification!.checks.find((c) => c.path === INDEX_CACHE_PATH)).toMatchObject({ status: 'passed' });
    expect(held(read, s)).toBeUndefined();
    const after = await recall(read, { tenant: 'acme', subject: s, maxSensitivity: 'confidential' });
    expect(JSON.stringify(after)).not.toContain('heron');
    expect(JSON.stringify(held(read, s) ?? {})).not.toContain('heron');
  });
});
