// Vectors and anticipated queries on the write side, against a stand-in
// model endpoint on a local port and a real PostgreSQL:
//   - a write embeds its new memory after the append; the vector is stored
//     sealed under the memory's key, with its model and dimensions, and the
//     read side opens it for the semantic signal;
//   - a failing endpoint never fails a write: the failure is recorded and
//     reindexVectors retries it;
//   - a vector of another model is not used, and a re-index replaces it;
//   - an erasure deletes the erased memory's vectors (the erasure check says
//     so, and fails when one is left), and a re-index brings nothing back;
//   - an entry without anticipated queries gets the expander's; one with
//     them keeps its own; an expander failure writes the entry without;
//     bad anticipated queries are refused naming the field, nothing written.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetMemory, forgetSubject } from '../../src/commands/forget.js';
import { vectorsCheck } from '../../src/reads/erasure/ledger-checks.js';
import { recordMemory } from '../../src/commands/record.js';
import { reindexVectors } from '../../src/commands/retrieval/vector-index.js';
import { embeddingText } from '../../src/domain/retrieval/corpus/embedding-text.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { InvalidInput } from '../../src/domain/validation/invalid-input.js';
import { openReadSide } from '../../src/queries/read-side.js';
import { semanticInputs } from '../../src/queries/semantic/semantic-inputs.js';
import { readSubjectEvents } from '../../src/queries/subject-events.js';
import { openLedger } from '../../src/runtime/open-ledger.js';
import { fact, ok, openWorld, type World } from '../forgetting/support.js';
import { bagOfWords, DIMENSIONS, embeddingEnv, startModelServer, type ModelServer } from '../support/model-server.js';

let model: ModelServer;
let world: World;

beforeAll(async () => {
  model = await startModelServer();
  world = await openWorld('retrieval_vectors', undefined, Date.now(), {
    ...embeddingEnv(model, 'bag-of-words-16'),
    MEMLEDGER_EXPANSION_URL: model.baseUrl,
    MEMLEDGER_EXPANSION_MODEL: 'stand-in-chat',
    MEMLEDGER_EXPANSION_TIMEOUT_MS: '1000',
  });
}, 120_000);
afterAll(async () => {
  await world?.close();
  await model?.close();
});

interface VectorRow {
  memory_id: string;
  model: string;
  dimensions: number | null;
  vector: Record<string, string> | null;
  failure_code: string | null;
  attempts: number;
}

async function vectorRows(c: { tenant: string; subject: string }): Promise<VectorRow[]> {
  const client = new pg.Client({ connectionString: world.databaseUrl });
  await client.connect();
  try {
    return (
      await client.query<VectorRow>('SELECT * FROM memory_vectors WHERE tenant = $1 AND subject = $2 ORDER BY memory_id, model', [
        c.tenant,
        c.subject,
      ])
    ).rows;
  } finally {
    await client.end();
  }
}

const float32 = (v: number[]) => Array.from(Float32Array.from(v));
const noQueries = () => '{"queries":[]}';

describe('vectors of memories', () => {
  it('a write stores its vector sealed, with model and dimensions; the read side opens it', async () => {
    model.fault = 'none';
    model.chat = noQueries;
    const c = { tenant: 'acme', subject: 'vec-write' };
    const entry = fact('contact.phone', 'never call after 9pm', { content: 'The customer refuses evening phone calls' });
    const { memoryId } = ok(await recordMemory(world.ledger, c, entry));
    const rows = await vectorRows(c);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ memory_id: memoryId, model: 'bag-of-words-16', dimensions: DIMENSIONS, failure_code: null });
    expect(Object.keys(rows[0]!.vector!).sort()).toEqual(['alg', 'ct', 'iv', 'keyId']);
    const expected = bagOfWords(
      embeddingText({
        key: 'contact.phone',
        value: { type: 'text', text: 'never call after 9pm' },
        polarity: 'affirmed',
        content: 'The customer refuses evening phone calls',
      }),
    );
    // The sealed row says none of the vector's numbers in clear.
    expect(JSON.stringify(rows[0])).not.toContain(`[${expected.join(',')}]`);
    const inputs = await semanticInputs(world.read, c, 'phone calls?', [memoryId]);
    if (inputs.status !== 'ready') throw new Error(`semantic inputs ${inputs.status}`);
    expect(inputs.queryVector).toEqual(bagOfWords('phone calls?'));
    expect(inputs.vectors.get(memoryId)).toEqual(float32(expected));
  });

  it('a failing endpoint never fails the write; the failure is recorded and a re-index retries it', async () => {
    model.chat = noQueries;
    const c = { tenant: 'acme', subject: 'vec-failing' };
    model.fault = 'http_500';
    const { memoryId } = ok(await recordMemory(world.ledger, c, fact('shipping.city', 'Hangzhou')));
    expect((await world.ledger.eventStore.readStream(subjectStreamName(c.tenant, c.subject))).map((e) => e.type)).toEqual([
      'MemoryRecorded',
    ]);
    expect(await vectorRows(c)).toMatchObject([{ memory_id: memoryId, vector: null, failure_code: 'http_error', attempts: 1 }]);
    expect(await reindexVectors(world.ledger, c)).toMatchObject({ embedded: 0, failed: 1, failure: { code: 'http_error' } });
    expect(await vectorRows(c)).toMatchObject([{ vector: null, attempts: 2 }]);
    model.fault = 'none';
    expect(await reindexVectors(world.ledger, c)).toMatchObject({ embedded: 1, failed: 0, upToDate: 0 });
    expect(await vectorRows(c)).toMatchObject([{ memory_id: memoryId, dimensions: DIMENSIONS, failure_code: null }]);
    expect(await reindexVectors(world.ledger, c)).toMatchObject({ embedded: 0, upToDate: 1 });
  });

  it('a vector of another model is not used; a re-index with the new model replaces it', async () => {
    model.fault = 'none';
    model.chat = noQueries;
    const c = { tenant: 'acme', subject: 'vec-model' };
    const { memoryId } = ok(await recordMemory(world.ledger, c, fact('notification.preference', 'sms only')));
    const other = await openLedger({ env: { ...world.env, ...embeddingEnv(model, 'bag-of-words-16-v2') } });
    const read = await openReadSide(other, { tokenizer: false });
    try {
      const before = await semanticInputs(read, c, 'how to notify?', [memoryId]);
      expect(before.status === 'ready' && before.vectors.size).toBe(0);
      expect(await reindexVectors(other, c)).toMatchObject({ embedded: 1 });
      expect((await vectorRows(c)).map((r) => r.model)).toEqual(['bag-of-words-16-v2']);
      const after = await semanticInputs(read, c, 'how to notify?', [memoryId]);
      expect(after.status === 'ready' && [...after.vectors.keys()]).toEqual([memoryId]);
    } finally {
      await read.close();
      await other.close();
    }
  });

  it('an erasure deletes the vectors and says so; a re-index after it brings nothing back', async () => {
    model.fault = 'none';
    model.chat = noQueries;
    const c = { tenant: 'acme', subject: 'vec-erase' };
    const phone = ok(await recordMemory(world.ledger, c, fact('contact.phone', '+1 415 555 0199'))).memoryId;
    const kept = ok(await recordMemory(world.ledger, c, fact('shipping.city', 'Ningbo'))).memoryId;
    expect((await vectorRows(c)).map((r) => r.memory_id).sort()).toEqual([phone, kept].sort());
    const receipt = ok(await forgetMemory(world.ledger, c, phone, 'test', world.erasure(c)));
    expect(receipt.verification?.status).toBe('passed');
    expect(receipt.verification?.checks).toContainEqual(expect.objectContaining({ path: 'vectors', status: 'passed', findings: 0 }));
    expect(receipt.indexesUpdated).toContain('memory_vectors');
    expect((await vectorRows(c)).map((r) => r.memory_id)).toEqual([kept]);
    await world.ledger.retrieval!.vectors.forget(c, [kept]);
    expect(await reindexVectors(world.ledger, c)).toMatchObject({ embedded: 1 });
    expect((await vectorRows(c)).map((r) => r.memory_id)).toEqual([kept]);

    // The check can fail: a row of the erased memory left behind is a finding.
    const [row] = await world.ledger.retrieval!.vectors.read(c, 'bag-of-words-16', [kept]);
    await world.ledger.retrieval!.vectors.put(c, [{ ...row!, memoryId: phone }], new Date());
    const target = { ref: c, scope: 'memory' as const, memoryIds: [phone], artifactIds: [], keyIds: [], recordedAt: [] };
    const needles = { plaintexts: [], sha256: [], keyedHashes: [], plaintextKnown: false };
    expect(await vectorsCheck(world.ledger.retrieval!.vectors).run({ ...target, needles })).toMatchObject({
      status: 'failed',
      findings: 1,
    });
  });

  it('a subject erasure deletes every vector of the subject', async () => {
    model.fault = 'none';
    model.chat = noQueries;
    const c = { tenant: 'acme', subject: 'vec-erase-subject' };
    ok(await recordMemory(world.ledger, c, fact('contact.email', 'someone@example.org')));
    ok(await recordMemory(world.ledger, c, fact('shipping.city', 'Suzhou')));
    expect(await vectorRows(c)).toHaveLength(2);
    const receipt = ok(await forgetSubject(world.ledger, c, 'test', world.erasure(c)));
    expect(receipt.verification?.checks).toContainEqual(expect.objectContaining({ path: 'vectors', status: 'passed' }));
    expect(await vectorRows(c)).toEqual([]);
    expect(await reindexVectors(world.ledger, c)).toMatchObject({ embedded: 0 });
    expect(await vectorRows(c)).toEqual([]);
  });
});

describe('anticipated queries at write time', () => {
  const queriesOf = async (c: { tenant: string; subject: string }) =>
    (await readSubjectEvents(world.ledger.eventStore, world.ledger.keyStore, c))
      .filter((e) => e.type === 'MemoryRecorded')
      .map((e) => (e.data as { anticipatedQueries?: unknown }).anticipatedQueries);

  it("an entry without them gets the expander's, sealed in the event; one with them keeps its own", async () => {
    model.fault = 'none';
    model.chat = () => JSON.stringify({ queries: ['这位客户能打电话吗？', 'Can we phone them?'] });
    const c = { tenant: 'acme', subject: 'expand-write' };
    const calls = model.requests.filter((r) => r.path === '/v1/chat/completions').length;
    ok(await recordMemory(world.ledger, c, { ...fact('contact.calls', 'no'), content: '用户不接受电话回访' }));
    ok(await recordMemory(world.ledger, c, { ...fact('contact.hours', '9 to 5'), anticipatedQueries: ['When can we reach them?'] }));
    expect(model.requests.filter((r) => r.path === '/v1/chat/completions').length).toBe(calls + 1);
    expect(await queriesOf(c)).toEqual([
      { status: 'readable', plaintext: ['这位客户能打电话吗？', 'Can we phone them?'] },
      { status: 'readable', plaintext: ['When can we reach them?'] },
    ]);
    const raw = JSON.stringify((await world.ledger.eventStore.readStream(subjectStreamName(c.tenant, c.subject))).map((e) => e.data));
    expect(raw).not.toContain('Can we phone them?');
    expect(raw).not.toContain('When can we reach them?');
    // The vector is of the text with the questions.
    const [first] = await vectorRows(c);
    expect(first?.dimensions).toBe(DIMENSIONS);
  });

  it('an expander that fails or times out leaves the entry without them, and the write goes on', async () => {
    const c = { tenant: 'acme', subject: 'expand-failing' };
    for (const fault of ['http_500', 'slow', 'not_json'] as const) {
      model.fault = fault;
      ok(await recordMemory(world.ledger, c, fact(`contact.${fault}`, 'x')));
    }
    model.fault = 'none';
    expect(await queriesOf(c)).toEqual([undefined, undefined, undefined]);
  });

  it('bad anticipated queries are refused naming the field, and nothing is written', async () => {
    model.fault = 'none';
    const c = { tenant: 'acme', subject: 'expand-bad' };
    const bad: Array<[unknown, string]> = [
      [Array.from({ length: 9 }, (_x, i) => `q${i}`), 'anticipatedQueries'],
      [['fine', 'x'.repeat(257)], 'anticipatedQueries.1'],
      [['  '], 'anticipatedQueries.0'],
      ['one question', 'anticipatedQueries'],
    ];
    for (const [anticipatedQueries, field] of bad) {
      await expect(recordMemory(world.ledger, c, { ...fact('contact.x', 'y'), anticipatedQueries })).rejects.toSatisfy(
        (e: unknown) => e instanceof InvalidInput && e.field === field,
      );
    }
    expect(await world.ledger.eventStore.readStream(subjectStreamName(c.tenant, c.subject))).toEqual([]);
    expect(await vectorRows(c)).toEqual([]);
  });
});
