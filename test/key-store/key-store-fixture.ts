// Shared by the PostgreSQL key store tests: a fresh, migrated database per
// test file, stores under chosen master keys, and scans of the key tables'
// rows and files. Call useKeyStoreDatabase() once at the top of a test file.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { Sealed } from '../../src/infrastructure/cipher/sealed.js';
import { masterKey, type MasterKey } from '../../src/infrastructure/key-store/master-key.js';
import type { KeyLookup, SubjectRef } from '../../src/infrastructure/key-store/port.js';
import { PostgresKeyStore } from '../../src/infrastructure/key-store/postgres-key-store.js';
import { openMemoryField, sealMemoryField } from '../../src/infrastructure/key-store/sealing.js';
import { migrateToLatest } from '../../src/infrastructure/postgres/migrate.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let db: TestDatabase | undefined;
let client: pg.Client | undefined;
const stores: PostgresKeyStore[] = [];
let subjects = 0;

export const masterA: MasterKey = masterKey(randomBytes(32));

export function useKeyStoreDatabase(prefix: string): void {
  beforeAll(async () => {
    db = await createTestDatabase(prefix);
    await migrateToLatest(db.url);
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await client?.end();
    await db?.drop();
  });
}

export function databaseUrl(): string {
  if (!db) throw new Error('useKeyStoreDatabase() was not called');
  return db.url;
}

/** A plain connection for looking at the tables directly. */
export function admin(): pg.Client {
  if (!client) throw new Error('useKeyStoreDatabase() was not called');
  return client;
}

export function storeWith(master: MasterKey, previous: MasterKey[] = [], rewriteAfterForget = true): PostgresKeyStore {
  const store = new PostgresKeyStore({ connectionString: databaseUrl(), masterKeys: { current: master, previous }, rewriteAfterForget });
  stores.push(store);
  return store;
}

export function newSubject(): SubjectRef {
  subjects += 1;
  return { tenant: 'acme', subject: `user-${subjects}` };
}

export function found<K>(lookup: KeyLookup<K>): K {
  if (lookup.status !== 'found') throw new Error(`expected a key, got ${JSON.stringify(lookup)}`);
  return lookup.key;
}

export async function sealed(store: PostgresKeyStore, ref: SubjectRef, memoryId: string, text: string): Promise<Sealed> {
  const outcome = await sealMemoryField(store, ref, memoryId, 'value', JSON.stringify({ type: 'text', text }));
  if (outcome.status !== 'sealed') throw new Error(`could not seal: ${outcome.status}`);
  return outcome.sealed;
}

/** The text sealed for a memory, or why it cannot be read. */
export async function opened(store: PostgresKeyStore, ref: SubjectRef, memoryId: string, envelope: Sealed): Promise<string> {
  const outcome = await openMemoryField(store, ref, memoryId, 'value', envelope);
  return outcome.status === 'opened' ? (JSON.parse(outcome.plaintext) as { text: string }).text : outcome.status;
}

export async function wrappedKeyOf(ref: SubjectRef, memoryId: string): Promise<Buffer> {
  const result = await admin().query<{ wrapped_key: Buffer }>(
    'SELECT wrapped_key FROM key_store_memories WHERE tenant = $1 AND subject = $2 AND memory_id = $3',
    [ref.tenant, ref.subject, memoryId],
  );
  return result.rows[0]!.wrapped_key;
}

export async function wrappedSecretOf(ref: SubjectRef): Promise<Buffer> {
  const result = await admin().query<{ wrapped_secret: Buffer }>(
    'SELECT wrapped_secret FROM key_store_subjects WHERE tenant = $1 AND subject = $2',
    [ref.tenant, ref.subject],
  );
  return result.rows[0]!.wrapped_secret;
}

const KEY_TABLES = ['key_store_subjects', 'key_store_memories'] as const;

/** Whether any row of the key tables, as SQL sees it, holds these bytes (binary or as text). */
export async function rowsHold(needle: Buffer): Promise<boolean> {
  for (const table of KEY_TABLES) {
    const result = await admin().query<{ row: string }>(`SELECT t::text AS row FROM ${table} t`);
    if (result.rows.some((r) => r.row.includes(needle.toString('hex')) || r.row.includes(needle.toString('latin1')))) return true;
  }
  return false;
}

/** Whether the tables' files on disk (every row version PostgreSQL keeps, dead ones included) hold these bytes. */
export async function filesHold(needle: Buffer): Promise<boolean> {
  await admin().query('CHECKPOINT');
  for (const table of KEY_TABLES) {
    const result = await admin().query<{ at: number }>(
      'SELECT position($1::bytea in pg_read_binary_file(pg_relation_filepath($2::text))) AS at',
      [needle, table],
    );
    if (result.rows[0]!.at > 0) return true;
  }
  return false;
}

const run = promisify(execFile);

/**
 * Runs `body` in a separate Node process with a PostgresKeyStore named `store`
 * (master key masterA, from MEMLEDGER_MASTER_KEY) and `tenant`, `subject` in
 * scope; returns what the body printed as JSON on its last line.
 */
export async function inChildProcess<T>(ref: SubjectRef, body: string): Promise<T> {
  const script = `
    const { PostgresKeyStore } = await import(${JSON.stringify(resolve('src/infrastructure/key-store/postgres-key-store.ts'))});
    const { loadMasterKeyring } = await import(${JSON.stringify(resolve('src/infrastructure/key-store/master-key.ts'))});
    const [url, tenant, subject] = process.argv.slice(1);
    const { keyring } = await loadMasterKeyring();
    const store = new PostgresKeyStore({ connectionString: url, masterKeys: keyring });
    try {
      ${body}
    } finally {
      await store.close();
    }`;
  const env = { ...process.env, MEMLEDGER_MASTER_KEY: masterA.bytes.toString('base64') };
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script, databaseUrl(), ref.tenant, ref.subject],
    { env },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}
