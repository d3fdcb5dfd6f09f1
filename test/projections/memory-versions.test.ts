// The bitemporal memory table on the seeds' scenarios, written through the
// real command handlers (sealing, key store, decider, PostgreSQL store):
//   - 003: a preference valid from 07-01 but recorded on 07-05, then changed
//     on 07-10;
//   - 004: a phone number changed in January but recorded in March, asked
//     about as of February (the old number) and as of April (the new one,
//     valid since January).
// Transaction time is the store's commit time (now), so system-time
// questions are asked relative to the recordedAt the commands report; valid
// times come from the entries' validFrom.
// Plus erasure: a forgotten memory keeps its skeleton, never its ciphertext.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetMemory } from '../../src/commands/forget.js';
import { retractMemory } from '../../src/commands/lifecycle.js';
import { recordMemory, type RecordResult } from '../../src/commands/record.js';
import type { Result } from '../../src/domain/result/result.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { openProjectionDatabase, readActive, type MemoryProjectionDb, type ProjectionDatabase } from '../../src/projections/index.js';
import { believedAt } from '../../src/projections/memory/as-of.js';
import { openTestLedger, type TestLedger } from '../support/ledger.js';
import { catchUpWith } from './support/log-horizon.js';

const TENANT = 'acme';
const ms = (iso: string) => new Date(iso);
const before = (iso: string) => new Date(Date.parse(iso) - 1);
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

function ok<R>(outcome: Result<R>): R {
  if (!outcome.ok) throw new Error(`refused: ${outcome.rejection.code} ${outcome.rejection.message}`);
  return outcome.result;
}

describe('memory_versions, bitemporal', () => {
  let test: TestLedger;
  let projections: ProjectionDatabase;
  let now = new Date('2026-07-05T09:00:00Z');

  beforeAll(async () => {
    test = await openTestLedger('proj_bitemporal', () => now);
    projections = await openProjectionDatabase(test.ledger.databaseUrl);
  });
  afterAll(async () => {
    await projections?.close();
    await test?.close();
  });

  const record = async (subject: string, at: string, entry: Record<string, unknown>): Promise<RecordResult> => {
    now = new Date(at);
    await tick(); // distinct commit milliseconds
    return ok(
      await recordMemory(
        test.ledger,
        { tenant: TENANT, subject },
        { kind: 'profile', source: { type: 'user_assertion', refs: ['msg://thread-1/turn-1'] }, ...entry },
      ),
    );
  };

  const catchUp = (subject: string) => catchUpWith(test.ledger.eventStore, projections.db, [subjectStreamName(TENANT, subject)]);
  const believed = async (subject: string, key: string, systemTime: Date, validTime: string) => {
    await catchUp(subject);
    return readActive(projections.db, 'memory', (tables: Kysely<MemoryProjectionDb>) =>
      believedAt(tables, { tenant: TENANT, subject, key, systemTime, validTime: ms(validTime) }),
    );
  };
  const memoryIds = (rows: { memory_id: string }[]) => rows.map((r) => r.memory_id);

  it('003: a preference valid from 07-01, recorded on 07-05, changed on 07-10', async () => {
    const key = 'notification.preference';
    const email = await record('u-pref', '2026-07-05T09:00:00Z', {
      key,
      value: { type: 'text', text: 'email' },
      validFrom: '2026-07-01T00:00:00Z',
    });
    const sms = await record('u-pref', '2026-07-10T09:00:00Z', {
      key,
      value: { type: 'text', text: 'sms' },
      validFrom: '2026-07-10T00:00:00Z',
    });
    expect(sms.decision).toBe('SUPERSEDES');
    expect(sms.supersedes).toEqual([email.memoryId]);
    const recordedEmail = email.recordedAt;
    const recordedSms = sms.recordedAt;
    expect(Date.parse(recordedSms)).toBeGreaterThan(Date.parse(recordedEmail));

    // Before the system recorded anything, it believed nothing, whatever the valid time.
    expect(await believed('u-pref', key, before(recordedEmail), '2026-07-03T00:00:00Z')).toEqual([]);
    // Once recorded (the 07-05 of the seed): email, from 07-01 on, with no end yet.
    expect(memoryIds(await believed('u-pref', key, ms(recordedEmail), '2026-07-03T00:00:00Z'))).toEqual([email.memoryId]);
    expect(memoryIds(await believed('u-pref', key, ms(recordedEmail), '2026-07-12T00:00:00Z'))).toEqual([email.memoryId]);
    expect(await believed('u-pref', key, ms(recordedEmail), '2026-06-30T00:00:00Z')).toEqual([]);
    // After the change: email for 07-01..07-10 (its window closed, not overwritten), sms from 07-10.
    const past = await believed('u-pref', key, ms(recordedSms), '2026-07-03T00:00:00Z');
    expect(memoryIds(past)).toEqual([email.memoryId]);
    expect(past[0]!.status).toBe('superseded');
    expect(past[0]!.valid_to?.toISOString()).toBe('2026-07-10T00:00:00.000Z');
    expect(memoryIds(await believed('u-pref', key, ms(recordedSms), '2026-07-12T00:00:00Z'))).toEqual([sms.memoryId]);
    // The question at the very moment the change was recorded includes it ("as of T" includes T).
    expect(memoryIds(await believed('u-pref', key, ms(recordedSms), '2026-07-10T00:00:00Z'))).toEqual([sms.memoryId]);
    expect(memoryIds(await believed('u-pref', key, before(recordedSms), '2026-07-10T00:00:00Z'))).toEqual([email.memoryId]);

    // Two versions of the email entry: the first closed (system time) exactly where the second opened.
    const versions = await readActive(projections.db, 'memory', (tables: Kysely<MemoryProjectionDb>) =>
      tables.selectFrom('memory_versions').selectAll().where('memory_id', '=', email.memoryId).orderBy('version').execute(),
    );
    expect(
      versions.map((v) => [
        v.version,
        v.status,
        v.tx_from.toISOString(),
        v.tx_to?.toISOString() ?? null,
        v.valid_to?.toISOString() ?? null,
      ]),
    ).toEqual([
      [1, 'active', recordedEmail, recordedSms, null],
      [2, 'superseded', recordedSms, null, '2026-07-10T00:00:00.000Z'],
    ]);
    // Content stays sealed in the rows: the envelope, never the text.
    expect(versions[0]!.value).toMatchObject({ alg: 'A256GCM' });
    expect(JSON.stringify(versions)).not.toContain('email');
  });

  it('004: a phone number changed in January, recorded in March; asked as of February and as of April', async () => {
    const key = 'contact.phone';
    const old = await record('u-phone', '2026-01-02T10:00:00Z', {
      key,
      value: { type: 'text', text: '+86-138-0000-0001' },
      validFrom: '2025-06-01T00:00:00Z',
    });
    const changed = await record('u-phone', '2026-03-10T10:00:00Z', {
      key,
      value: { type: 'text', text: '+86-139-0000-0002' },
      validFrom: '2026-01-15T00:00:00Z',
    });
    expect(changed.decision).toBe('SUPERSEDES');
    // "February": any system time before the March recording — the system still held the old number, for February too.
    const february = before(changed.recordedAt);
    expect(february.getTime()).toBeGreaterThanOrEqual(Date.parse(old.recordedAt));
    expect(memoryIds(await believed('u-phone', key, february, '2026-02-10T00:00:00Z'))).toEqual([old.memoryId]);
    // "April": after the recording — the new number, valid since January; the old one for before January 15.
    const april = ms(changed.recordedAt);
    expect(memoryIds(await believed('u-phone', key, april, '2026-02-10T00:00:00Z'))).toEqual([changed.memoryId]);
    expect(memoryIds(await believed('u-phone', key, april, '2026-01-15T00:00:00Z'))).toEqual([changed.memoryId]);
    expect(memoryIds(await believed('u-phone', key, april, '2026-01-14T23:59:59.999Z'))).toEqual([old.memoryId]);
    expect(memoryIds(await believed('u-phone', key, april, '2025-12-01T00:00:00Z'))).toEqual([old.memoryId]);
  });

  it('a retracted memory is no longer believed from the retraction on; the past answer stays', async () => {
    const key = 'shipping.city';
    const city = await record('u-city', '2026-04-01T00:00:00Z', {
      key,
      value: { type: 'text', text: 'Hangzhou' },
      validFrom: '2026-03-01T00:00:00Z',
    });
    now = new Date('2026-04-02T00:00:00Z');
    await tick();
    const retracted = ok(
      await retractMemory(test.ledger, { tenant: TENANT, subject: 'u-city' }, city.memoryId, 'the user said it was a typo'),
    );
    expect(retracted.recordedAt).not.toBeNull();
    await catchUp('u-city');
    const versions = await readActive(projections.db, 'memory', (tables: Kysely<MemoryProjectionDb>) =>
      tables.selectFrom('memory_versions').selectAll().where('memory_id', '=', city.memoryId).orderBy('version').execute(),
    );
    expect(versions.map((v) => v.status)).toEqual(['active', 'retracted']);
    const closedAt = versions[0]!.tx_to!;
    expect(closedAt.toISOString()).toBe(retracted.recordedAt);
    expect(memoryIds(await believed('u-city', key, before(closedAt.toISOString()), '2026-03-15T00:00:00Z'))).toEqual([city.memoryId]);
    expect(await believed('u-city', key, closedAt, '2026-03-15T00:00:00Z')).toEqual([]);
  });

  it('erasure: every version of a forgotten memory loses its ciphertext and keyed hashes; the skeleton stays', async () => {
    const first = await record('u-forget', '2026-05-01T00:00:00Z', {
      key: 'contact.phone',
      value: { type: 'text', text: '+86-138-1111-2222' },
      content: 'call me on my mobile',
    });
    const second = await record('u-forget', '2026-05-02T00:00:00Z', {
      key: 'contact.phone',
      value: { type: 'text', text: '+86-139-3333-4444' },
    });
    expect(second.supersedes).toEqual([first.memoryId]);
    await catchUp('u-forget'); // the first versions are stored before the erasure
    now = new Date('2026-05-03T00:00:00Z');
    ok(await forgetMemory(test.ledger, { tenant: TENANT, subject: 'u-forget' }, first.memoryId, 'user request'));
    await catchUp('u-forget');
    const rows = await readActive(projections.db, 'memory', (tables: Kysely<MemoryProjectionDb>) =>
      tables.selectFrom('memory_versions').selectAll().where('subject', '=', 'u-forget').orderBy('memory_id').orderBy('version').execute(),
    );
    const forgotten = rows.filter((r) => r.memory_id === first.memoryId);
    expect(forgotten.map((r) => r.status)).toEqual(['active', 'superseded', 'forgotten']);
    for (const row of forgotten) {
      expect([row.value, row.content, row.value_hash, row.content_hash]).toEqual([null, null, null, null]);
      expect([row.key, row.kind, row.sequence]).toEqual(['contact.phone', 'profile', 1]);
    }
    const kept = rows.filter((r) => r.memory_id === second.memoryId);
    expect(kept.map((r) => r.status)).toEqual(['active']);
    expect(kept[0]!.value).toMatchObject({ alg: 'A256GCM' });
    expect(kept[0]!.value_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
