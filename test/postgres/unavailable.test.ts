// Which errors mean "the database is out of reach" (503, retry) and which do not.
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/infrastructure/postgres/unavailable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['both addresses of localhost refusing', new AggregateError([withCode('a', 'ECONNREFUSED'), withCode('b', 'ECONNREFUSED')], '')],
    ['an administrator shutdown', withCode('terminating connection due to administrator command', '57P01')],
    ['a server still starting', withCode('the database system is starting up', '57P03')],
    ['a connection exception', withCode('connection failure', '08006')],
    ['a connection pg saw break', new Error('Connection terminated unexpectedly')],
  ])('says yes to %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    [
      'a model endpoint that refuses (fetch wraps the cause)',
      new TypeError('fetch failed', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') }),
    ],
    ['not an error', 'ECONNREFUSED'],
  ])('says no to %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("says yes to a server's Unix-domain socket that is gone (the embedded server stopped), no to a missing file", async () => {
    const gone = new pg.Client({
      host: join(tmpdir(), `memledger-no-server-${process.pid}`),
      port: 5432,
      user: 'nobody',
      database: 'none',
    });
    gone.on('error', () => undefined);
    const refused = await gone.connect().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((refused as { code?: string }).code).toBe('ENOENT');
    expect(isDatabaseUnavailable(refused)).toBe(true);
    const missing = await readFile(join(tmpdir(), `memledger-no-file-${process.pid}`)).catch((error: unknown) => error);
    expect((missing as { code?: string }).code).toBe('ENOENT');
    expect(isDatabaseUnavailable(missing)).toBe(false);
  });
});
