// The write side through the real CLI, in child processes.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, runCli } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let db: TestDatabase;
let env: Record<string, string>;
beforeAll(async () => {
  db = await createTestDatabase('write_cli');
  env = cliEnvironment(db.url);
});
afterAll(async () => {
  await db?.drop();
});

const entry = (key: string, text: string) =>
  JSON.stringify({ kind: 'profile', key, value: { type: 'text', text }, source: { type: 'user_assertion', refs: ['msg://t'] } });

async function events(subject: string): Promise<Array<{ type: string; data: any; revision: number }>> {
  const run = await runCli(['events', '--tenant', 'acme', '--subject', subject], env);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe('memledger CLI, write side', () => {
  it('8 processes recording into one subject at once all succeed, and sequences are 1..N without gaps', async () => {
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        runCli(['record', '--tenant', 'acme', '--subject', 'race', '--entry', entry(`fact.p${i}`, `value ${i}`)], env),
      ),
    );
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const results = runs.map((r) => JSON.parse(r.stdout));
    expect(results.map((r) => r.sequence).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const recorded = (await events('race')).filter((e) => e.type === 'MemoryRecorded');
    expect(recorded.map((e) => e.data.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  }, 300_000);

  it('a retried command with the same idempotency key returns the same memoryId and appends nothing', async () => {
    const args = [
      'record',
      '--tenant',
      'acme',
      '--subject',
      'retry',
      '--idempotency-key',
      'k-42',
      '--entry',
      entry('notification.preference', 'sms'),
    ];
    const first = await runCli(args, env);
    expect(first.code, first.stderr).toBe(0);
    const before = await events('retry');
    const second = await runCli(args, env);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ ...JSON.parse(first.stdout), replayed: true });
    expect(await events('retry')).toEqual(before);
    // The same key with another entry is not a retry: refused (exit 3) naming the key, nothing appended.
    const reused = await runCli([...args.slice(0, -1), entry('notification.preference', 'phone')], env);
    expect(reused.code, reused.stderr).toBe(3);
    expect(JSON.parse(reused.stderr)).toMatchObject({ error: 'idempotency_key_reused', field: 'idempotency-key' });
    expect(JSON.parse(reused.stderr).message).toContain('k-42');
    expect(await events('retry')).toEqual(before);
  }, 300_000);

  it('bad entries exit 2 with a JSON error naming the field, and the stream is unchanged', async () => {
    await runCli(['record', '--tenant', 'acme', '--subject', 'bad', '--entry', entry('a.b', 'ok')], env);
    const before = await events('bad');
    const cases: Array<[string, string]> = [
      [JSON.stringify({ kind: 'profile', value: { type: 'text', text: 'x' }, source: { type: 'user_assertion' } }), 'key'],
      [JSON.stringify({ kind: 'gossip', key: 'a.b', value: { type: 'text', text: 'x' }, source: { type: 'user_assertion' } }), 'kind'],
      [
        JSON.stringify({ kind: 'profile', key: 'a.b', value: { type: 'number', amount: true }, source: { type: 'user_assertion' } }),
        'value.amount',
      ],
      [
        JSON.stringify({
          kind: 'profile',
          key: 'a.b',
          value: { type: 'text', text: 'x' },
          source: { type: 'user_assertion' },
          validFrom: 'yesterday',
        }),
        'validFrom',
      ],
      [
        JSON.stringify({
          kind: 'profile',
          key: 'a.b',
          value: { type: 'text', text: 'x' },
          source: { type: 'user_assertion' },
          content: 'y'.repeat(17_000),
        }),
        'content',
      ],
      ['{not json', 'entry'],
      // Instants the stores cannot hold (no year 0 in PostgreSQL): they used to be appended and then wedge the projection.
      [
        JSON.stringify({
          kind: 'semantic',
          key: 'a.b',
          value: { type: 'text', text: 'x' },
          source: { type: 'user_assertion' },
          validFrom: '0000-01-01T00:00:00Z',
        }),
        'validFrom',
      ],
      [
        JSON.stringify({
          kind: 'semantic',
          key: 'a.b',
          value: { type: 'text', text: 'x' },
          source: { type: 'user_assertion' },
          expiresAt: '0001-01-01T00:30:00+01:00',
        }),
        'expiresAt',
      ],
    ];
    // Ill-formed text: a lone surrogate (escaped in JSON) and bytes that are not UTF-8 (in a file); both used to become U+FFFD or a 500.
    cases.push([
      '{"kind":"profile","key":"a.b","value":{"type":"text","text":"half \\ud83d"},"source":{"type":"user_assertion"}}',
      'value.text',
    ]);
    const latin1 = join(await mkdtemp(join(tmpdir(), 'memledger-utf8-')), 'entry.json');
    await writeFile(
      latin1,
      Buffer.from('{"kind":"profile","key":"a.b","value":{"type":"text","text":"caf\xe9"},"source":{"type":"user_assertion"}}', 'latin1'),
    );
    cases.push([`@${latin1}`, 'entry']);
    const runs = await Promise.all(cases.map(([e]) => runCli(['record', '--tenant', 'acme', '--subject', 'bad', '--entry', e], env)));
    runs.forEach((run, i) => {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      const error = JSON.parse(run.stderr.trim());
      expect(error).toMatchObject({ error: 'invalid_input', field: cases[i]![1] });
    });
    const badTenant = await runCli(['record', '--tenant', 'a/b', '--subject', 'bad', '--entry', entry('a.b', 'x')], env);
    expect(badTenant.code).toBe(2);
    expect(JSON.parse(badTenant.stderr).field).toBe('tenant');
    expect(await events('bad')).toEqual(before);
  }, 300_000);

  it('import validates every line first (exit 2 naming the line), then appends in batches; a re-run appends nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'memledger-import-'));
    const good = Array.from({ length: 30 }, (_, i) => entry(`fact.k${i}`, `value ${i}`)).join('\n');
    await writeFile(
      join(dir, 'bad.jsonl'),
      `${good}\n{"kind":"profile","key":"a.b","value":{"type":"text"},"source":{"type":"user_assertion"}}\n`,
    );
    await writeFile(join(dir, 'good.jsonl'), `${good}\n`);
    const bad = await runCli(['import', '--tenant', 'acme', '--subject', 'imp', '--file', join(dir, 'bad.jsonl')], env);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).field).toBe('line 31: value.text');
    expect(await events('imp')).toEqual([]);
    const run = await runCli(
      ['import', '--tenant', 'acme', '--subject', 'imp', '--file', join(dir, 'good.jsonl'), '--batch-size', '10'],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ lines: 30, batches: 3, decisions: { NEW: 30 } });
    const again = await runCli(['import', '--tenant', 'acme', '--subject', 'imp', '--file', join(dir, 'good.jsonl')], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ alreadyImported: 30, batches: 0 });
    expect((await events('imp')).length).toBe(30);
  }, 300_000);

  it('after forget, the forgotten plaintext is in no event, no key-store row and no CLI output', async () => {
    const phone = '+1-555-0199-7734';
    const rec = await runCli(
      [
        'record',
        '--tenant',
        'acme',
        '--subject',
        'erase',
        '--entry',
        JSON.stringify({
          kind: 'profile',
          key: 'contact.phone',
          value: { type: 'text', text: phone },
          content: `Call me at ${phone}`,
          source: { type: 'user_assertion' },
        }),
      ],
      env,
    );
    expect(rec.code, rec.stderr).toBe(0);
    const memoryId = JSON.parse(rec.stdout).memoryId;
    const other = await runCli(
      ['record', '--tenant', 'acme', '--subject', 'erase', '--entry', entry('notification.preference', 'sms')],
      env,
    );
    expect(other.code).toBe(0);
    // Readable before: the test can see the number when it is there.
    expect(JSON.stringify(await events('erase'))).toContain(phone);
    expect(await databaseContains(phone)).toBe(false); // encrypted at rest from the start

    // A subject that never had an event: refused (exit 3), no receipt and no tombstone, so the id still takes writes.
    const nobody = await runCli(['forget', '--tenant', 'acme', '--subject', 'nobody', '--reason', 'cleanup'], env);
    expect(nobody.code, nobody.stderr).toBe(3);
    expect(JSON.parse(nobody.stderr)).toMatchObject({ error: 'subject_not_found', field: 'subject' });
    expect(await events('nobody')).toEqual([]);

    const forget = await runCli(
      ['forget', '--tenant', 'acme', '--subject', 'erase', '--memory', memoryId, '--reason', 'user request'],
      env,
    );
    expect(forget.code, forget.stderr).toBe(0);
    const receipt = JSON.parse(forget.stdout);
    expect(receipt).toMatchObject({ scope: 'memory', memoryIds: [memoryId] });
    expect(receipt.destroyedKeyIds.length).toBe(1);

    const after = await events('erase');
    expect(JSON.stringify(after)).not.toContain(phone);
    expect(JSON.stringify(after)).toContain('sms');
    const recorded = after.find((e) => e.type === 'MemoryRecorded' && e.data.memoryId === memoryId)!;
    expect(recorded.data.value).toEqual({ status: 'forgotten' });
    expect(after.map((e) => e.type)).toContain('MemoryForgotten');
    expect(await databaseContains(phone)).toBe(false);
    expect(await databaseContains(phone.replace(/\D/g, ''))).toBe(false);
  }, 300_000);
});

/** Scans every text-castable column of every user table for the needle. */
async function databaseContains(needle: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const tables = await client.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    expect(tables.rows.length).toBeGreaterThan(0);
    for (const t of tables.rows) {
      const hit = await client.query(`SELECT 1 FROM "${t.schema}"."${t.name}" AS r WHERE r::text LIKE $1 LIMIT 1`, [`%${needle}%`]);
      if (hit.rowCount) return true;
    }
    return false;
  } finally {
    await client.end();
  }
}
