// `memledger reindex` through the real CLI, in child processes, against a
// stand-in embedding endpoint: a memory written while the endpoint failed
// gets its vector; bad input exits 2 naming the option, with nothing done;
// without an embedder the answer says so (model null).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, runCli } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { embeddingEnv, startModelServer, type ModelServer } from '../support/model-server.js';

let db: TestDatabase;
let model: ModelServer;
let env: Record<string, string>;
beforeAll(async () => {
  db = await createTestDatabase('reindex_cli');
  model = await startModelServer();
  env = { ...cliEnvironment(db.url), ...embeddingEnv(model, 'bag-of-words-16') };
});
afterAll(async () => {
  await db?.drop();
  await model?.close();
});

const entry = JSON.stringify({
  kind: 'profile',
  key: 'fact.a',
  value: { type: 'text', text: 'tea' },
  source: { type: 'user_assertion', refs: ['msg://t'] },
});

describe('memledger reindex', () => {
  it('embeds what the endpoint failed on; exit 2 naming a bad option; model null without an embedder', async () => {
    model.fault = 'http_500';
    const written = await runCli(['record', '--tenant', 'acme', '--subject', 's1', '--entry', entry], env);
    expect(written.code, written.stderr).toBe(0);
    model.fault = 'none';

    const done = await runCli(['reindex', '--tenant', 'acme'], env);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({
      model: 'bag-of-words-16',
      subjects: [{ subject: 's1', embedded: 1 }],
      totals: { embedded: 1 },
    });

    const bad = await runCli(['reindex', '--tenant', 'acme', '--subject', 'a b'], env);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr)).toMatchObject({ error: 'invalid_input', field: 'subject' });

    const off = await runCli(['reindex', '--tenant', 'acme', '--subject', 's1'], cliEnvironment(db.url));
    expect(off.code, off.stderr).toBe(0);
    expect(JSON.parse(off.stdout)).toMatchObject({ model: null, subjects: [] });
  });
});
