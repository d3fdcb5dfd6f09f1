// Read your own writes over HTTP while a transaction elsewhere on the server
// holds PostgreSQL's global log back: a recall right after a write waits for
// the log to show that write (and answers with it) instead of answering from
// a head that leaves it out.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, startTestService, type TestService } from './service.js';

let t: TestService;
let writer: string;
beforeAll(async () => {
  t = await startTestService('api_ryw', { config: { consolidationWorkers: 0 } });
  writer = await t.key('acme', 'writer');
});
afterAll(async () => t?.close());

describe('read your writes over HTTP', () => {
  it('a recall after a write shows it, even while an older transaction elsewhere is open', async () => {
    const holder = new pg.Client({ connectionString: t.database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('select pg_current_xact_id()'); // an xid older than the write below
      const written = await t.request('POST', '/v1/subjects/ryw/memories', {
        key: writer,
        body: entry('carrier pigeon only', { key: 'contact.channel' }),
      });
      expect(written.status).toBe(201);
      // The holder ends a moment after the recall arrives; until then the log's stable head leaves the write out.
      const released = new Promise<void>((resolve) => setTimeout(() => void holder.query('COMMIT').then(() => resolve()), 700));
      const recalled = await t.request('GET', '/v1/subjects/ryw/recall', { key: writer });
      await released;
      expect(recalled.status).toBe(200);
      expect(recalled.text).toContain('carrier pigeon only');
      expect(recalled.body.revision).toBe(written.body.revision);
    } finally {
      await holder.end();
    }
  });
});
